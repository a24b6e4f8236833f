package dev.modelarmor.screening;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.SanitizationMetadata;
import dev.modelarmor.client.SanitizationResult.Verdict;
import dev.modelarmor.client.SanitizeOptions;
import dev.modelarmor.client.admin.FloorSettingOperations;
import dev.modelarmor.client.admin.TemplateOperations;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What {@link LongTextScreening} does with the threads of the calls it makes, over an in-memory client
 * whose calls block until they are interrupted: what a server on loopback cannot show deterministically.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LongTextScreeningThreadTests {

	static final String TEXT = "FIRST " + LongTextScreeningTests.padding(100_000);

	static final SanitizationResult JAILBREAK = new SanitizationResult(FilterMatchState.MATCH_FOUND,
			InvocationResult.SUCCESS, Map.of("pi_and_jailbreak", WindowMergeTests.pi(FilterMatchState.MATCH_FOUND)),
			SanitizationMetadata.EMPTY);

	@Test
	void aMatchInterruptsTheCallsStillInFlight() throws InterruptedException {
		CountDownLatch interrupted = new CountDownLatch(WindowSettings.DEFAULTS.parallelism() - 1);
		// The first window answers once the others are surely in flight.
		Function<String, SanitizationResult> calls = (window) -> window.startsWith("FIRST") ? after(300, JAILBREAK)
				: blockUntilInterrupted(interrupted);
		try (LongTextScreening screening = new LongTextScreening(new FunctionOperations(calls),
				WindowSettings.DEFAULTS)) {
			assertThat(screening.sanitizeUserPrompt(TEXT).verdict()).isEqualTo(Verdict.MATCHED);
			assertThat(interrupted.await(5, TimeUnit.SECONDS)).as("the other windows' calls were interrupted").isTrue();
		}
	}

	@Test
	void cancellingAnAsyncScreeningOverABlockingClientInterruptsTheWindowsInFlight() throws InterruptedException {
		CountDownLatch interrupted = new CountDownLatch(2);
		try (LongTextScreening screening = new LongTextScreening(
				new FunctionOperations((window) -> blockUntilInterrupted(interrupted)),
				new WindowSettings(8192, 1024, 2, 64))) {
			CompletableFuture<SanitizationResult> result = screening.sanitizeUserPromptAsync(TEXT);
			Thread.sleep(300);
			assertThat(result.cancel(true)).isTrue();
			assertThat(interrupted.await(5, TimeUnit.SECONDS)).as("both windows' calls were interrupted").isTrue();
		}
	}

	@Test
	void anInterruptedCallerSaysHowManyWindowsWereScreened() throws InterruptedException {
		Function<String, SanitizationResult> calls = (window) -> window.startsWith("FIRST") ? WindowMergeTests.noMatch()
				: blockUntilInterrupted(new CountDownLatch(0));
		AtomicReference<Throwable> failure = new AtomicReference<>();
		try (LongTextScreening screening = new LongTextScreening(new FunctionOperations(calls),
				new WindowSettings(8192, 1024, 2, 64))) {
			Thread caller = new Thread(() -> {
				try {
					screening.sanitizeUserPrompt(TEXT);
				}
				catch (RuntimeException ex) {
					failure.set(ex);
				}
			});
			caller.start();
			Thread.sleep(300);
			caller.interrupt();
			caller.join(5_000);
		}
		assertThat(failure.get()).isInstanceOf(ModelArmorException.class)
			.hasMessage("The long-text screening of a prompt was interrupted after 1 of "
					+ WindowCutter.split(TEXT, WindowSettings.DEFAULTS).windows().size() + " windows");
	}

	@Test
	void aWindowThatFailsForAnotherReasonThanModelArmorRethrowsThatFailureAsItIs() {
		IllegalStateException noTemplate = new IllegalStateException("No Model Armor template");
		try (LongTextScreening screening = new LongTextScreening(new FunctionOperations((window) -> {
			throw noTemplate;
		}), WindowSettings.DEFAULTS)) {
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> screening.sanitizeUserPrompt(TEXT))
				.isSameAs(noTemplate);
		}
		AssertionError error = new AssertionError("broken");
		try (LongTextScreening screening = new LongTextScreening(new FunctionOperations((window) -> {
			throw error;
		}), WindowSettings.DEFAULTS)) {
			assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> screening.sanitizeUserPrompt(TEXT))
				.isSameAs(error);
		}
	}

	@Test
	void aMatchStillWinsOverAWindowThatThrows() {
		long started = System.nanoTime();
		Function<String, SanitizationResult> calls = (window) -> {
			if (window.startsWith("FIRST")) {
				return WindowMergeTests.deidentified("whatever");
			}
			throw new ModelArmorException("Model Armor could not be reached");
		};
		try (LongTextScreening screening = new LongTextScreening(new FunctionOperations(calls),
				new WindowSettings(8192, 1024, 1, 64))) {
			assertThat(screening.sanitizeUserPrompt(TEXT).verdict()).isEqualTo(Verdict.MATCHED);
		}
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void refusesNullArguments() {
		FunctionOperations operations = new FunctionOperations((window) -> WindowMergeTests.noMatch());
		assertThatIllegalArgumentException().isThrownBy(() -> new LongTextScreening(null, WindowSettings.DEFAULTS))
			.withMessage("operations must not be null");
		assertThatIllegalArgumentException().isThrownBy(() -> new LongTextScreening(operations, null))
			.withMessage("windows must not be null");
		try (LongTextScreening screening = new LongTextScreening(operations, WindowSettings.DEFAULTS)) {
			assertThatExceptionOfType(NullPointerException.class).isThrownBy(() -> screening.sanitizeUserPrompt(null))
				.withMessage("prompt must not be null");
			assertThatExceptionOfType(NullPointerException.class)
				.isThrownBy(() -> screening.sanitizeModelResponse(null, "question"))
				.withMessage("response must not be null");
		}
	}

	private static SanitizationResult after(long millis, SanitizationResult result) {
		try {
			Thread.sleep(millis);
			return result;
		}
		catch (InterruptedException ex) {
			throw new AssertionError("interrupted", ex);
		}
	}

	private static SanitizationResult blockUntilInterrupted(CountDownLatch interrupted) {
		try {
			Thread.sleep(20_000);
			throw new AssertionError("never interrupted");
		}
		catch (InterruptedException ex) {
			interrupted.countDown();
			throw new ModelArmorException("interrupted", 1, ex);
		}
	}

	/**
	 * A client whose sanitize calls are a function of the text.
	 */
	record FunctionOperations(Function<String, SanitizationResult> calls) implements ModelArmorOperations {

		@Override
		public SanitizationResult sanitizeUserPrompt(String prompt) {
			return this.calls.apply(prompt);
		}

		@Override
		public SanitizationResult sanitizeUserPrompt(DataItem prompt) {
			throw new UnsupportedOperationException();
		}

		@Override
		public SanitizationResult sanitizeUserPrompt(DataItem prompt, SanitizeOptions options) {
			throw new UnsupportedOperationException();
		}

		@Override
		public SanitizationResult sanitizeModelResponse(String response) {
			return this.calls.apply(response);
		}

		@Override
		public SanitizationResult sanitizeModelResponse(String response, String userPrompt) {
			return this.calls.apply(response);
		}

		@Override
		public SanitizationResult sanitizeModelResponse(DataItem response, @Nullable String userPrompt) {
			throw new UnsupportedOperationException();
		}

		@Override
		public SanitizationResult sanitizeModelResponse(DataItem response, @Nullable String userPrompt,
				SanitizeOptions options) {
			throw new UnsupportedOperationException();
		}

		@Override
		public ModelArmorOperations withTemplate(String templateId) {
			return this;
		}

		@Override
		public TemplateOperations templates() {
			throw new UnsupportedOperationException();
		}

		@Override
		public FloorSettingOperations floorSettings() {
			throw new UnsupportedOperationException();
		}

	}

}
