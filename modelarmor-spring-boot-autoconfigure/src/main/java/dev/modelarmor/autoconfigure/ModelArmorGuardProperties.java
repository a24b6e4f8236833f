package dev.modelarmor.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties of {@code @ModelArmorGuarded} methods ({@code modelarmor.guard.*}). Whether a call
 * that cannot be screened goes on, and how long text is cut into windows, are screening properties
 * ({@code modelarmor.screening.*}) since they govern every integration; the old names here still work in
 * this release, unset unless configured, and lose to the new ones when both are set.
 */
@ConfigurationProperties("modelarmor.guard")
public class ModelArmorGuardProperties {

	/**
	 * Whether @ModelArmorGuarded methods are screened.
	 */
	private boolean enabled = true;

	/**
	 * Whether a call goes on when screening cannot complete. Replaced by modelarmor.screening.fail-open.
	 */
	private @Nullable Boolean failOpen;

	private final Window window = new Window();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	@DeprecatedConfigurationProperty(replacement = "modelarmor.screening.fail-open", since = "0.1.0",
			reason = "It governs the Spring AI advisor, documents and tools as well as guarded methods")
	public @Nullable Boolean getFailOpen() {
		return this.failOpen;
	}

	public void setFailOpen(@Nullable Boolean failOpen) {
		this.failOpen = failOpen;
	}

	public Window getWindow() {
		return this.window;
	}

	/**
	 * The windows of long text, under their old names. Replaced by modelarmor.screening.window.*.
	 */
	public static class Window {

		/**
		 * Most bytes in one window. Replaced by modelarmor.screening.window.size.
		 */
		private @Nullable DataSize size;

		/**
		 * Bytes that consecutive windows share at least. Replaced by modelarmor.screening.window.overlap.
		 */
		private @Nullable DataSize overlap;

		/**
		 * Most windows of one text screened at the same time. Replaced by
		 * modelarmor.screening.window.parallelism.
		 */
		private @Nullable Integer parallelism;

		/**
		 * Most windows one text is cut into. Replaced by modelarmor.screening.window.max-windows.
		 */
		private @Nullable Integer maxWindows;

		@DeprecatedConfigurationProperty(replacement = "modelarmor.screening.window.size", since = "0.1.0")
		public @Nullable DataSize getSize() {
			return this.size;
		}

		public void setSize(@Nullable DataSize size) {
			this.size = size;
		}

		@DeprecatedConfigurationProperty(replacement = "modelarmor.screening.window.overlap", since = "0.1.0")
		public @Nullable DataSize getOverlap() {
			return this.overlap;
		}

		public void setOverlap(@Nullable DataSize overlap) {
			this.overlap = overlap;
		}

		@DeprecatedConfigurationProperty(replacement = "modelarmor.screening.window.parallelism", since = "0.1.0")
		public @Nullable Integer getParallelism() {
			return this.parallelism;
		}

		public void setParallelism(@Nullable Integer parallelism) {
			this.parallelism = parallelism;
		}

		@DeprecatedConfigurationProperty(replacement = "modelarmor.screening.window.max-windows", since = "0.1.0")
		public @Nullable Integer getMaxWindows() {
			return this.maxWindows;
		}

		public void setMaxWindows(@Nullable Integer maxWindows) {
			this.maxWindows = maxWindows;
		}

	}

}
