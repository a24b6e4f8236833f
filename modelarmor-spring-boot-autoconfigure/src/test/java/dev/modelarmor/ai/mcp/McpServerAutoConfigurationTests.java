package dev.modelarmor.ai.mcp;

import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Map;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorSpringAiMcpServerAutoConfiguration;
import dev.modelarmor.guard.ModelArmorStubs;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.MapPropertySource;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wiring of the MCP server's screening: on by default beside Spring AI's MCP server starter, off with
 * {@code modelarmor.spring-ai.mcp-server.enabled=false}, an invalid property fails startup naming it, and the
 * application's own specification beans, of every kind, are decorated as Spring AI's are, their generic type kept.
 */
class McpServerAutoConfigurationTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
				ModelArmorSpringAiMcpServerAutoConfiguration.class))
		.withPropertyValues(ModelArmorStubs.properties(modelArmor))
		.withPropertyValues("modelarmor.template-check.enabled=false")
		.withUserConfiguration(Tools.class);

	@Test
	void theApplicationsSpecificationsAreDecoratedAndKeepTheirType() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(ModelArmorMcpServerScreener.class);
			String[] lists = context.getBeanNamesForType(ResolvableType.forClassWithGenerics(List.class,
					SyncToolSpecification.class));
			assertThat(lists).containsExactly("tools");
			List<?> tools = context.getBean("tools", List.class);
			SyncToolSpecification tool = (SyncToolSpecification) tools.get(0);
			assertThat(tool.callHandler()).isNotSameAs(Tools.HANDLER);
			assertThat(context.getBean("single", SyncToolSpecification.class).callHandler()).isNotSameAs(Tools.HANDLER);
		});
	}

	@Test
	void everyKindOfSpecificationIsDecoratedSyncAsyncAndStateless() {
		McpSchema.Tool tool = Tools.tool("lookup");
		McpSchema.Prompt prompt = new McpSchema.Prompt("greeting", "Greets", List.of());
		McpSchema.Resource resource = McpSchema.Resource.builder().uri("docs://readme").name("readme").build();
		McpSchema.ResourceTemplate template = McpSchema.ResourceTemplate.builder()
			.uriTemplate("docs://{page}")
			.name("docs")
			.build();
		List<Object> specifications = List.of(new SyncToolSpecification(tool, Tools.HANDLER),
				new McpServerFeatures.AsyncToolSpecification(tool, (exchange, request) -> Mono.empty()),
				new McpServerFeatures.SyncPromptSpecification(prompt, (exchange, request) -> null),
				new McpServerFeatures.AsyncPromptSpecification(prompt, (exchange, request) -> Mono.empty()),
				new McpServerFeatures.SyncResourceSpecification(resource, (exchange, request) -> null),
				new McpServerFeatures.AsyncResourceSpecification(resource, (exchange, request) -> Mono.empty()),
				new McpServerFeatures.SyncResourceTemplateSpecification(template, (exchange, request) -> null),
				new McpServerFeatures.AsyncResourceTemplateSpecification(template, (exchange, request) -> Mono.empty()),
				new McpStatelessServerFeatures.SyncToolSpecification(tool, (context, request) -> null),
				new McpStatelessServerFeatures.AsyncToolSpecification(tool, (context, request) -> Mono.empty()),
				new McpStatelessServerFeatures.SyncPromptSpecification(prompt, (context, request) -> null),
				new McpStatelessServerFeatures.AsyncPromptSpecification(prompt, (context, request) -> Mono.empty()),
				new McpStatelessServerFeatures.SyncResourceSpecification(resource, (context, request) -> null),
				new McpStatelessServerFeatures.AsyncResourceSpecification(resource, (context, request) -> Mono.empty()),
				new McpStatelessServerFeatures.SyncResourceTemplateSpecification(template, (context, request) -> null),
				new McpStatelessServerFeatures.AsyncResourceTemplateSpecification(template,
						(context, request) -> Mono.empty()));
		ApplicationContextRunner runner = this.runner;
		for (int i = 0; i < specifications.size(); i++) {
			Object specification = specifications.get(i);
			runner = runner.withBean("specification" + i, Object.class, () -> specification);
		}
		runner.run((context) -> {
			for (int i = 0; i < specifications.size(); i++) {
				Object original = specifications.get(i);
				Object served = context.getBean("specification" + i);
				assertThat(served).as(original.getClass().getName()).isInstanceOf(original.getClass());
				assertThat(handler(served)).as(original.getClass().getName()).isNotSameAs(handler(original));
			}
		});
	}

	/** The handler of a specification: the record's one {@code BiFunction}. */
	private static Object handler(Object specification) throws Exception {
		for (RecordComponent component : specification.getClass().getRecordComponents()) {
			if (component.getType() == java.util.function.BiFunction.class) {
				return component.getAccessor().invoke(specification);
			}
		}
		throw new AssertionError("no handler in " + specification.getClass().getName());
	}

	@Test
	void anExcludedToolIsServedAsItIs() {
		this.runner.withPropertyValues("modelarmor.spring-ai.mcp-server.excluded-tools=lookup,other").run((context) -> {
			SyncToolSpecification tool = (SyncToolSpecification) context.getBean("tools", List.class).get(0);
			assertThat(tool.callHandler()).isSameAs(Tools.HANDLER);
		});
	}

	@Test
	void offLeavesTheServerAsItIs() {
		this.runner.withPropertyValues("modelarmor.spring-ai.mcp-server.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(ModelArmorMcpServerScreener.class);
			SyncToolSpecification tool = (SyncToolSpecification) context.getBean("tools", List.class).get(0);
			assertThat(tool.callHandler()).isSameAs(Tools.HANDLER);
		});
	}

	@Test
	void aBlankExcludedNameFailsStartupNamingTheProperty() {
		this.runner.withPropertyValues("modelarmor.spring-ai.mcp-server.excluded-tools[0]=lookup",
				"modelarmor.spring-ai.mcp-server.excluded-tools[1]= ").run((context) -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure())
						.rootCause()
						.hasMessageContaining("modelarmor.spring-ai.mcp-server.excluded-tools[1]");
				});
	}

	@Test
	void aBlankTemplateFailsStartupNamingTheProperty() {
		this.runner.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("blank", Map.of("modelarmor.spring-ai.mcp-server.template", " "))))
			.run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("modelarmor.spring-ai.mcp-server.template");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Tools {

		static final java.util.function.BiFunction<io.modelcontextprotocol.server.McpSyncServerExchange, McpSchema.CallToolRequest, McpSchema.CallToolResult> HANDLER = (
				exchange, request) -> McpSchema.CallToolResult.builder().addTextContent("found").build();

		@Bean
		List<SyncToolSpecification> tools() {
			return List.of(new SyncToolSpecification(tool("lookup"), HANDLER));
		}

		@Bean
		SyncToolSpecification single() {
			return new SyncToolSpecification(tool("single"), HANDLER);
		}

		private static McpSchema.Tool tool(String name) {
			return McpSchema.Tool.builder().name(name).description("Looks up").inputSchema(Map.of("type", "object")).build();
		}

	}

}
