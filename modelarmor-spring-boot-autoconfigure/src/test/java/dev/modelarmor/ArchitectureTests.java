package dev.modelarmor;

import java.lang.annotation.Annotation;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.stream.Stream;
import java.util.stream.Collectors;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.modelarmor.architecture.LeakyApi;
import dev.modelarmor.architecture.ReachesIntoTheCalls;
import dev.modelarmor.architecture.internal.Plumbing;
import dev.modelarmor.internal.ModelArmorThreads;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.retry.support.RetrySynchronizationManager;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The rules that keep the main code's shape, checked on its compiled classes: the package layering, no
 * cycles, Spring Boot's conventions for auto-configuration and properties, nullness declared for every
 * package, and no state handed over through thread-locals. A rule that fails names each class or
 * dependency that breaks it.
 */
class ArchitectureTests {

	private static final JavaClasses MAIN = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption(ArchitectureTests::notInATestJar)
		.importPackages("dev.modelarmor");

	/**
	 * The packages from the bottom up: retry → client (auth beside it) → screening → guard / ai /
	 * observation / web / actuate → autoconfigure. Each layer may use exactly the layers it uses today, all
	 * below it; a new edge, even a downward one, is a decision to make here, and nothing points back up.
	 */
	static final ArchRule LAYERS = layeredArchitecture().consideringOnlyDependenciesInLayers()
		.layer("retry").definedBy("dev.modelarmor.retry..")
		.layer("resilience").definedBy("dev.modelarmor.resilience..")
		.layer("client").definedBy("dev.modelarmor.client..")
		.layer("screening").definedBy("dev.modelarmor.screening..")
		.layer("guard").definedBy("dev.modelarmor.guard..")
		.layer("auth").definedBy("dev.modelarmor.auth..")
		.layer("ai").definedBy("dev.modelarmor.ai..")
		.layer("observation").definedBy("dev.modelarmor.observation..")
		.layer("web").definedBy("dev.modelarmor.web..")
		.layer("actuate").definedBy("dev.modelarmor.actuate..")
		.layer("autoconfigure").definedBy("dev.modelarmor.autoconfigure..")
		.whereLayer("retry").mayNotAccessAnyLayer()
		.whereLayer("resilience").mayOnlyAccessLayers("retry")
		.whereLayer("client").mayOnlyAccessLayers("resilience", "retry")
		.whereLayer("auth").mayOnlyAccessLayers("client", "retry")
		.whereLayer("screening").mayOnlyAccessLayers("client", "retry")
		.whereLayer("guard").mayOnlyAccessLayers("screening", "client", "retry")
		.whereLayer("ai").mayOnlyAccessLayers("screening", "client")
		.whereLayer("observation").mayOnlyAccessLayers("screening", "client", "resilience", "retry")
		.whereLayer("web").mayOnlyAccessLayers("screening")
		.whereLayer("actuate").mayOnlyAccessLayers("client", "retry")
		.whereLayer("autoconfigure").mayNotBeAccessedByAnyLayer()
		.because("the layering is retry → resilience → client (auth beside it) → screening → guard/ai/observation/web/actuate "
				+ "→ autoconfigure: a dependency that points back up makes a cycle waiting to happen");

	/**
	 * The Spring AI integration and the annotation are two users of the screening layer, side by side:
	 * what they share lives in {@code screening}, so that either can change (or be left off the class
	 * path) without the other.
	 */
	static final ArchRule AI_DOES_NOT_DEPEND_ON_GUARD = noClasses().that()
		.resideInAPackage("dev.modelarmor.ai..")
		.should()
		.dependOnClassesThat()
		.resideInAPackage("dev.modelarmor.guard..")
		.because("the advisor, documents and tools screen through dev.modelarmor.screening, as the guard does "
				+ "so that either can change without the other");

	/**
	 * Spring AI is optional for an application: only the {@code modelarmor-spring-ai} module and the wiring of it
	 * name Spring AI or that module, so that an application without them loads none of their types.
	 */
	static final ArchRule ONLY_THE_SPRING_AI_MODULE_AND_ITS_WIRING_NAME_SPRING_AI = noClasses().that()
		.resideOutsideOfPackage("dev.modelarmor.ai..")
		.and(describe("are not the Spring AI wiring", (JavaClass type) -> !type.getSimpleName().startsWith("SpringAi")
				&& !type.getName().startsWith("dev.modelarmor.autoconfigure.ModelArmorSpringAi")
				&& !type.getName().startsWith("dev.modelarmor.autoconfigure.ModelArmorToolsPostProcessor")))
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("org.springframework.ai..", "dev.modelarmor.ai..")
		.because("an application without modelarmor-spring-ai must start: the screening layer reads Spring AI's "
				+ "media through a MediaAdapter that the module registers");

	/**
	 * The sub-packages by concern, each in its place below or beside the others: the verdict cache and media
	 * under the screening core and apart from each other, the stream segments on top of the core; the Spring AI
	 * packages side by side (the advisor may hold tools back for the prompt's verdict, nothing else crosses).
	 * The layers of {@link #LAYERS} still hold around them.
	 */
	static final ArchRule SUB_PACKAGES = layeredArchitecture().consideringOnlyDependenciesInLayers()
		.layer("screening.cache").definedBy("dev.modelarmor.screening.cache..")
		.layer("screening.media").definedBy("dev.modelarmor.screening.media..")
		.layer("screening").definedBy("dev.modelarmor.screening")
		.layer("screening.stream").definedBy("dev.modelarmor.screening.internal.stream..")
		.layer("guard").definedBy("dev.modelarmor.guard..")
		.layer("web").definedBy("dev.modelarmor.web..")
		.layer("observation").definedBy("dev.modelarmor.observation..")
		.layer("ai.advisor").definedBy("dev.modelarmor.ai.advisor..")
		.layer("ai.tool").definedBy("dev.modelarmor.ai.tool..")
		.layer("ai.document").definedBy("dev.modelarmor.ai.document..")
		.layer("ai.internal").definedBy("dev.modelarmor.ai.internal..")
		.layer("ai.mcp").definedBy("dev.modelarmor.ai.mcp..")
		.layer("ai.moderation").definedBy("dev.modelarmor.ai.moderation..")
		.whereLayer("screening.cache").mayOnlyBeAccessedByLayers("screening", "observation")
		.whereLayer("screening.cache").mayNotAccessAnyLayer()
		.whereLayer("screening.media").mayNotAccessAnyLayer()
		.whereLayer("screening").mayOnlyAccessLayers("screening.cache", "screening.media")
		.whereLayer("screening.stream").mayOnlyAccessLayers("screening")
		.whereLayer("screening.stream").mayOnlyBeAccessedByLayers("guard", "ai.advisor")
		.whereLayer("guard").mayOnlyAccessLayers("screening", "screening.media", "screening.stream")
		.whereLayer("web").mayOnlyAccessLayers("screening")
		.whereLayer("observation").mayOnlyAccessLayers("screening", "screening.cache")
		.whereLayer("ai.internal").mayOnlyAccessLayers("screening.media")
		.whereLayer("ai.advisor").mayOnlyAccessLayers("screening", "screening.media", "screening.stream")
		.whereLayer("ai.tool").mayOnlyAccessLayers("screening")
		.whereLayer("ai.document").mayOnlyAccessLayers("screening")
		.whereLayer("ai.mcp").mayOnlyAccessLayers("screening", "screening.media", "ai.tool")
		.whereLayer("ai.moderation").mayOnlyAccessLayers("screening")
		.because("each concern keeps to its place: the cache and media know nothing of the screening core, the "
				+ "stream segments serve the guard and the advisor, and the Spring AI packages do not lean on each other "
				+ "(the MCP server's screening uses the tool screener's public API for tool definitions)");

	/**
	 * API apart from plumbing: a public type of an API package (any {@code dev.modelarmor} package that is not
	 * {@code ..internal..}), including public types nested in public types, names no internal type in what a
	 * user sees of it: its superclass and interfaces, its public and protected fields, constructors and methods
	 * (parameter, return and thrown types, with their type arguments).
	 */
	static final ArchRule API_NAMES_NO_INTERNAL_TYPE = classes().that(describe("are public types of API packages",
			ArchitectureTests::isApiType))
		.should(nameNoInternalTypeInTheirSignatures())
		.because("what a user writes against must not drag in plumbing that may change in any release: an "
				+ "internal type in a public signature makes it API by the back door");

	static boolean isApiType(JavaClass type) {
		String pkg = type.getPackageName();
		if (!pkg.startsWith("dev.modelarmor") || isInternal(pkg)) {
			return false;
		}
		for (Optional<JavaClass> candidate = Optional.of(type); candidate.isPresent(); candidate = candidate.get()
			.getEnclosingClass()) {
			if (!candidate.get().getModifiers().contains(JavaModifier.PUBLIC)) {
				return false;
			}
		}
		return true;
	}

	private static boolean isInternal(String pkg) {
		return pkg.contains(".internal.") || pkg.endsWith(".internal");
	}

	private static ArchCondition<JavaClass> nameNoInternalTypeInTheirSignatures() {
		return new ArchCondition<>("name no internal type in their public signatures") {

			@Override
			public void check(JavaClass type, ConditionEvents events) {
				Stream.concat(type.getSuperclass().stream(), type.getInterfaces().stream())
					.forEach((supertype) -> report(type, "extends or implements", supertype, events));
				for (JavaField field : type.getFields()) {
					if (visible(field)) {
						report(type, "field " + field.getName() + " is", field.getType(), events);
					}
				}
				for (JavaCodeUnit unit : type.getCodeUnits()) {
					if (!visible(unit) || unit.getModifiers().contains(JavaModifier.SYNTHETIC)) {
						continue;
					}
					String what = unit.getFullName();
					report(type, what + " returns", unit.getReturnType(), events);
					unit.getParameterTypes().forEach((parameter) -> report(type, what + " takes", parameter, events));
					unit.getExceptionTypes().forEach((thrown) -> report(type, what + " throws", thrown, events));
				}
			}

			private boolean visible(JavaMember member) {
				return member.getModifiers().contains(JavaModifier.PUBLIC)
						|| member.getModifiers().contains(JavaModifier.PROTECTED);
			}

			private void report(JavaClass owner, String where, JavaType named, ConditionEvents events) {
				for (JavaClass raw : named.getAllInvolvedRawTypes()) {
					if (raw.getPackageName().startsWith("dev.modelarmor") && isInternal(raw.getPackageName())) {
						events.add(SimpleConditionEvent.violated(owner, "public type " + owner.getName() + ": "
								+ where + " " + raw.getName() + ", an internal type"));
					}
				}
			}

		};
	}

	static final ArchRule NO_PACKAGE_CYCLES = slices().matching("dev.modelarmor.(*)..")
		.should()
		.beFreeOfCycles()
		.because("a package cycle means neither package can be understood or changed alone");

	/**
	 * The client's calls, their JSON and the request and answer bodies that only travel, by name: in
	 * {@code dev.modelarmor.client.internal}, apart from the types an application writes against or reads, so
	 * that only the client's operations reach them and every request goes through the deadline-bounded request
	 * factory and the answer cap. (The management API in {@code client.admin} and the client form one layer: the
	 * operations return its types and it uses the client's exceptions and enums, so the two are not checked for
	 * cycles apart.)
	 */
	static final Set<String> CALLS = Set.of("AnswerReader", "ApiAnswer", "ApiCall", "ApiCalls", "ApiErrorTranslator",
			"AsReadJson", "AsyncApiCalls", "AttemptStep", "CallFailures", "CallProgress", "ListenedTemplateOperations",
			"ModelArmorJson", "ModelArmorJsonHints", "PathIds", "RecordConstructorInstantiators",
			"RestFloorSettingOperations", "RestTemplateOperations", "SanitizeCalls", "ServerText", "ThreeWayJsonMerge",
			"SanitizeUserPromptRequest", "SanitizeModelResponseRequest", "SanitizeResponse", "ListTemplatesResponse")
		.stream()
		.map((name) -> "dev.modelarmor.client.internal." + name)
		.collect(Collectors.toUnmodifiableSet());

	/**
	 * The client's calls and JSON ({@code dev.modelarmor.client.internal}) are public for the client's operations
	 * and exceptions only: no other package of the starter reaches past them to the calls.
	 */
	static final ArchRule CALLS_STAY_IN_THE_CLIENT = noClasses().that()
		.resideOutsideOfPackages("dev.modelarmor.client..")
		.should()
		.dependOnClassesThat()
		.resideInAPackage("dev.modelarmor.client.internal")
		.because("every call goes through ModelArmorTemplate: its retries, its deadline and its observer");

	/**
	 * The HTTP transport ({@code dev.modelarmor.client.internal.transport}) is public for the client's operations
	 * and the credentials' deadline only: no other package of the starter reaches past them to it.
	 */
	static final ArchRule TRANSPORT_STAYS_IN_THE_CLIENT = noClasses().that()
		.resideOutsideOfPackages("dev.modelarmor.client..", "dev.modelarmor.auth..")
		.should()
		.dependOnClassesThat()
		.resideInAPackage("dev.modelarmor.client.internal.transport..")
		.because("every request goes through ModelArmorTemplate: its deadline, its answer cap and its exchange slots");

	static final ArchRule AUTO_CONFIGURATIONS_ARE_PUBLIC_FINAL = classes().that()
		.areAnnotatedWith(AutoConfiguration.class)
		.should()
		.bePublic()
		.andShould()
		.haveModifier(JavaModifier.FINAL)
		.because("an auto-configuration is listed in the .imports file and never extended (Spring Boot's own rule)");

	static final ArchRule BEAN_METHODS_ARE_NOT_PUBLIC = methods().that()
		.areAnnotatedWith(Bean.class)
		.should()
		.notBePublic()
		.because("bean methods are wiring, not API: package-private, as in Spring Boot's own auto-configurations");

	/**
	 * Properties are plain data: getters and setters only, no interface (such as {@code InitializingBean}),
	 * and nothing they use beyond the JDK, the nullness annotations, Boot's binding annotations and value
	 * types, enums, and the starter's own value types whose constants give the defaults. Validation and
	 * conversion belong to the mapper, so no exception type either.
	 */
	static final ArchRule PROPERTIES_ARE_PLAIN_DATA = propertiesArePlainData(ConfigurationProperties.class);

	private static ArchRule propertiesArePlainData(Class<? extends Annotation> properties) {
		DescribedPredicate<JavaClass> starterValues = describe("are the starter's types but not exceptions",
				(JavaClass type) -> type.getPackageName().startsWith("dev.modelarmor")
						&& !type.isAssignableTo(Throwable.class));
		return classes().that(areOrBelongToClassesAnnotatedWith(properties))
			.should(haveOnlyAccessors())
			.andShould()
			.onlyDependOnClassesThat(resideInAnyPackage("java..", "org.jspecify.annotations..",
					"org.springframework.boot.context.properties..", "org.springframework.boot.convert..",
					"org.springframework.util.unit..", "org.springframework.core.io..")
				.and(describe("are not exceptions", (JavaClass type) -> !type.isAssignableTo(Throwable.class)))
				.or(areEnums())
				.or(starterValues)
				.or(equivalentTo(properties))
				.or(areOrBelongToClassesAnnotatedWith(properties)))
			.because("a @ConfigurationProperties class binds values and nothing else (properties are data)");
	}

	private static ArchCondition<JavaClass> haveOnlyAccessors() {
		return new ArchCondition<>("have only getters and setters") {

			@Override
			public void check(JavaClass type, ConditionEvents events) {
				type.getMethods()
					.stream()
					.filter((method) -> !method.getModifiers().contains(JavaModifier.SYNTHETIC))
					.filter((method) -> !method.getName().matches("(get|set|is)[A-Z].*"))
					.forEach((method) -> events.add(SimpleConditionEvent.violated(type,
							"method " + method.getFullName() + " is not a getter or a setter")));
			}

		};
	}

	static final ArchRule PACKAGES_ARE_NULL_MARKED = classes().should(resideInANullMarkedPackage())
		.because("NullAway checks only @NullMarked code: a package without it would go unchecked");

	/**
	 * The classes allowed a thread-bound channel, by name: none. The call's deadline reaches the request as a
	 * request attribute and the outcome returns as a value; an exception added here needs a reason.
	 */
	static final Set<String> THREAD_LOCAL_USERS = Set.of();

	static final ArchRule NO_THREAD_LOCALS = noClasses().that(describe("are not " + THREAD_LOCAL_USERS,
			(JavaClass type) -> !THREAD_LOCAL_USERS.contains(type.getName())))
		.should()
		.dependOnClassesThat()
		.areAssignableTo(ThreadLocal.class)
		.orShould()
		.dependOnClassesThat()
		.belongToAnyOf(RetrySynchronizationManager.class)
		.because("parameters are passed, not smuggled through thread-locals: a value on the thread is lost "
				+ "on every thread hop (reactive streams, executors) and hidden from the reader");

	/**
	 * Where threads are made: {@code ModelArmorThreads} names them, makes them daemon or virtual and ends its pools
	 * with the context. The test kit's stand-in ({@code dev.modelarmor.test}) is a server of its own.
	 */
	static final ArchRule THREADS_COME_FROM_ONE_PLACE = noClasses()
		.that(describe("are not ModelArmorThreads or the test kit",
				(JavaClass type) -> !type.getName().startsWith(ModelArmorThreads.class.getName())
						&& !type.getPackageName().equals("dev.modelarmor.test")))
		.should()
		.callConstructorWhere(describe("it makes a thread or a pool",
				(call) -> call.getTargetOwner().isAssignableTo(Thread.class)
						|| call.getTargetOwner().isAssignableTo(ThreadPoolExecutor.class)
						|| call.getTargetOwner().isAssignableTo(ForkJoinPool.class)))
		.orShould()
		.dependOnClassesThat()
		.belongToAnyOf(Executors.class)
		.because("every thread is named modelarmor-<purpose>-N, never holds the JVM, is virtual where Spring Boot's "
				+ "own executors are, and ends with the context: ModelArmorThreads sees to all four");

	@Test
	void threadsComeFromOnePlace() {
		THREADS_COME_FROM_ONE_PLACE.check(MAIN);
	}

	@Test
	void packagesAreLayered() {
		LAYERS.check(MAIN);
	}

	@Test
	void subPackagesKeepToTheirLayers() {
		SUB_PACKAGES.check(MAIN);
	}

	@Test
	void apiSignaturesNameNoInternalType() {
		assertThat(MAIN.stream().filter(ArchitectureTests::isApiType)).as("the rule sees the API types").isNotEmpty();
		API_NAMES_NO_INTERNAL_TYPE.check(MAIN);
	}

	@Test
	void aiDoesNotDependOnGuard() {
		AI_DOES_NOT_DEPEND_ON_GUARD.check(MAIN);
	}

	@Test
	void onlyTheSpringAiModuleAndItsWiringNameSpringAi() {
		ONLY_THE_SPRING_AI_MODULE_AND_ITS_WIRING_NAME_SPRING_AI.check(MAIN);
	}

	@Test
	void packagesHaveNoCycles() {
		NO_PACKAGE_CYCLES.check(MAIN);
	}

	@Test
	void theClientsCallsAndTransportStayInTheClient() {
		assertThat(MAIN.stream().map(JavaClass::getName).filter(CALLS::contains))
			.as("every class named in CALLS exists in the client's internal package").hasSameSizeAs(CALLS);
		CALLS_STAY_IN_THE_CLIENT.check(MAIN);
		TRANSPORT_STAYS_IN_THE_CLIENT.check(MAIN);
	}

	@Test
	void autoConfigurationsArePublicAndFinal() {
		AUTO_CONFIGURATIONS_ARE_PUBLIC_FINAL.check(MAIN);
	}

	@Test
	void beanMethodsAreNotPublic() {
		BEAN_METHODS_ARE_NOT_PUBLIC.check(MAIN);
	}

	@Test
	void configurationPropertiesArePlainData() {
		PROPERTIES_ARE_PLAIN_DATA.check(MAIN);
	}

	@Test
	void everyPackageIsNullMarked() {
		PACKAGES_ARE_NULL_MARKED.check(MAIN);
	}

	@Test
	void noThreadLocalsBeyondTheNamedOnes() {
		NO_THREAD_LOCALS.check(MAIN);
	}

	private static DescribedPredicate<JavaClass> areOrBelongToClassesAnnotatedWith(
			Class<? extends Annotation> annotation) {
		return describe("are or belong to a @" + annotation.getSimpleName() + " class",
				(type) -> isOrIsNestedInClassAnnotatedWith(type, annotation));
	}

	private static boolean isOrIsNestedInClassAnnotatedWith(JavaClass type, Class<? extends Annotation> annotation) {
		for (Optional<JavaClass> candidate = Optional.of(type); candidate.isPresent(); candidate = candidate.get()
			.getEnclosingClass()) {
			if (candidate.get().isAnnotatedWith(annotation)) {
				return true;
			}
		}
		return false;
	}

	private static DescribedPredicate<JavaClass> areEnums() {
		return describe("are enums", JavaClass::isEnum);
	}

	private static ArchCondition<JavaClass> resideInANullMarkedPackage() {
		return new ArchCondition<>("reside in a package whose package-info.java is annotated with @NullMarked") {

			@Override
			public void check(JavaClass type, ConditionEvents events) {
				if (!type.getPackage().isAnnotatedWith(NullMarked.class)) {
					events.add(SimpleConditionEvent.violated(type, "package " + type.getPackageName()
							+ " has no package-info.java annotated with @NullMarked (class " + type.getName() + ")"));
				}
			}

		};
	}

	/**
	 * Each hand-written rule fails, with a message that names the culprit, on a class that breaks it; so
	 * that the rules above pass because the code keeps them, not because a rule matches nothing.
	 */
	@Nested
	class RulesCatchWhatBreaksThem {

		/**
		 * The properties rule, for classes marked {@link FixtureProperties}: a {@code @ConfigurationProperties}
		 * class in the tests would make the configuration processor write test metadata that hides the real one.
		 */
		private static final ArchRule FIXTURE_PROPERTIES_ARE_PLAIN_DATA = propertiesArePlainData(
				FixtureProperties.class);

		@Test
		void aNonFinalAutoConfigurationWithAPublicBean() {
			JavaClasses broken = new ClassFileImporter().importClasses(OpenAutoConfiguration.class);
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> AUTO_CONFIGURATIONS_ARE_PUBLIC_FINAL.check(broken))
				.withMessageContaining(OpenAutoConfiguration.class.getName())
				.withMessageContaining("FINAL");
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> BEAN_METHODS_ARE_NOT_PUBLIC.check(broken))
				.withMessageContaining(OpenAutoConfiguration.class.getName() + ".publicBean()");
		}

		@Test
		void propertiesThatCarryLogic() {
			JavaClasses broken = new ClassFileImporter().importClasses(PropertiesWithLogic.class,
					PropertiesWithLogic.Nested.class, PropertiesWithLogic.Nested.Deeper.class);
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> FIXTURE_PROPERTIES_ARE_PLAIN_DATA.check(broken))
				.withMessageContaining("<" + PropertiesWithLogic.class.getName() + "> implements interface <"
						+ InitializingBean.class.getName() + ">")
				.withMessageContaining(PropertiesWithLogic.Nested.class.getName())
				.withMessageContaining(RetrySynchronizationManager.class.getName())
				.withMessageContaining(PropertiesWithLogic.class.getName() + ".afterPropertiesSet() is not a getter");
		}

		@Test
		void aiCodeThatReachesIntoGuard() {
			// The Spring AI tests borrow the guard's test stubs: as code of the ai package, that is the edge.
			JavaClasses aiWithTests = new ClassFileImporter().importPackages("dev.modelarmor.ai");
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> AI_DOES_NOT_DEPEND_ON_GUARD.check(aiWithTests))
				.withMessageContaining("dev.modelarmor.guard.ModelArmorStubs");
		}

		@Test
		void aPackageOutsideTheClientThatReachesTheCalls() {
			JavaClasses broken = new ClassFileImporter().importClasses(ReachesIntoTheCalls.class);
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> CALLS_STAY_IN_THE_CLIENT.check(broken))
				.withMessageContaining(ReachesIntoTheCalls.class.getName())
				.withMessageContaining("dev.modelarmor.client.internal.ModelArmorJson");
		}

		@Test
		void anApiTypeThatNamesAnInternalType() {
			JavaClasses broken = new ClassFileImporter().importPackagesOf(LeakyApi.class, Plumbing.class);
			assertThat(broken.contain(LeakyApi.class.getName() + "$Hidden")).as("the hidden nested type is checked")
				.isTrue();
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> API_NAMES_NO_INTERNAL_TYPE.check(broken))
				.withMessageContaining(LeakyApi.class.getName() + ": extends or implements " + Plumbing.class.getName())
				.withMessageContaining(LeakyApi.class.getName() + ".plumbing() returns " + Plumbing.class.getName())
				.withMessageContaining("field shared is " + Plumbing.class.getName())
				.withMessageContaining(LeakyApi.Nested.class.getName() + ": " + LeakyApi.Nested.class.getName()
						+ ".<init>(" + Plumbing.class.getName() + ") takes")
				.withMessageNotContaining("hidden")
				.withMessageNotContaining("packagePrivate")
				.withMessageNotContaining("$Hidden");
		}

		@Test
		void plainDataPropertiesPass() {
			FIXTURE_PROPERTIES_ARE_PLAIN_DATA.check(new ClassFileImporter().importClasses(PlainProperties.class));
		}

		@Test
		void aPackageWithoutNullMarked() {
			JavaClasses unmarked = new ClassFileImporter().importClasses(ArchitectureTests.class);
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> PACKAGES_ARE_NULL_MARKED.check(unmarked))
				.withMessageContaining("package dev.modelarmor has no package-info.java annotated with @NullMarked");
		}

		@Test
		void aThreadLocalOrTheRetryContextHolder() {
			JavaClasses broken = new ClassFileImporter().importClasses(ThreadBound.class, RetryContextReader.class);
			assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> NO_THREAD_LOCALS.check(broken))
				.withMessageContaining(ThreadBound.class.getName())
				.withMessageContaining(RetryContextReader.class.getName());
		}

	}

	@AutoConfiguration
	public static class OpenAutoConfiguration {

		@Bean
		public Object publicBean() {
			return new Object();
		}

	}

	@Retention(RetentionPolicy.RUNTIME)
	@interface FixtureProperties {

	}

	@FixtureProperties
	static class PropertiesWithLogic implements InitializingBean {

		@Override
		public void afterPropertiesSet() {
		}

		static class Nested {

			private final Deeper deeper = new Deeper();

			Object context() {
				return RetrySynchronizationManager.getContext();
			}

			static class Deeper {

			}

		}

	}

	@FixtureProperties
	static class PlainProperties {

		private Duration timeout = Duration.ofSeconds(1);

		private JavaModifier modifier = JavaModifier.FINAL;

		Duration getTimeout() {
			return this.timeout;
		}

		JavaModifier getModifier() {
			return this.modifier;
		}

	}

	static class ThreadBound {

		private final ThreadLocal<String> value = new ThreadLocal<>();

		String value() {
			return this.value.get();
		}

	}

	static class RetryContextReader {

		Object context() {
			return RetrySynchronizationManager.getContext();
		}

	}

	/**
	 * The other modules' test fixtures come as test-jars ({@code modelarmor-client-…-tests.jar}), which
	 * {@code DO_NOT_INCLUDE_TESTS} does not recognise: only their main classes are main code.
	 */
	private static boolean notInATestJar(Location location) {
		return !location.contains("-tests.jar");
	}

}
