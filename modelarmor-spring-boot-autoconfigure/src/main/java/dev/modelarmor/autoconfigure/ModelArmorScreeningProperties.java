package dev.modelarmor.autoconfigure;

import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.WindowSettings;
import dev.modelarmor.screening.media.UnscreenableMedia;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties of screening ({@code modelarmor.screening.*}), which every integration screens
 * through: {@code @ModelArmorGuarded} methods, the Spring AI advisor, retrieved documents and tool calls.
 * Their defaults are those of {@link WindowSettings#DEFAULTS}.
 */
@ConfigurationProperties("modelarmor.screening")
public class ModelArmorScreeningProperties {

	/**
	 * Whether a call goes on, with a WARN log, when screening cannot complete (Model Armor unreachable after
	 * the retries, or not every filter ran): a guarded method runs, the advisor, a document or a tool call
	 * passes. When false the call is blocked.
	 */
	private boolean failOpen;

	/**
	 * What media in a prompt that Model Armor cannot screen does (audio, video, images other than JPEG, PNG
	 * and BMP, other types, media given by URL, which is never fetched): 'block' refuses the call, 'allow'
	 * lets the media through unscreened with a WARN line and the metric result 'unscreened'. Media larger
	 * than Model Armor screens (4 MiB) is blocked either way.
	 */
	private UnscreenableMedia unscreenableMedia = UnscreenableMedia.BLOCK;

	/**
	 * Log lines of each outcome (blocked, not_screened, input_rejected, ...) written in full each second;
	 * beyond them, one line a second gives the count left out. The meters count every call. From 1 to 10000.
	 */
	private int logLinesPerSecond = ModelArmorScreening.DEFAULT_LOG_LINES_PER_SECOND;

	private final Window window = new Window();

	private final MultiLanguageDetection multiLanguageDetection = new MultiLanguageDetection();

	public boolean isFailOpen() {
		return this.failOpen;
	}

	public void setFailOpen(boolean failOpen) {
		this.failOpen = failOpen;
	}

	public UnscreenableMedia getUnscreenableMedia() {
		return this.unscreenableMedia;
	}

	public void setUnscreenableMedia(UnscreenableMedia unscreenableMedia) {
		this.unscreenableMedia = unscreenableMedia;
	}

	public int getLogLinesPerSecond() {
		return this.logLinesPerSecond;
	}

	public void setLogLinesPerSecond(int logLinesPerSecond) {
		this.logLinesPerSecond = logLinesPerSecond;
	}

	public MultiLanguageDetection getMultiLanguageDetection() {
		return this.multiLanguageDetection;
	}

	public Window getWindow() {
		return this.window;
	}

	/**
	 * How text longer than Model Armor's filters read (their first 10,000 tokens) is screened: whole,
	 * in overlapping windows.
	 */
	public static class Window {

		/**
		 * Most bytes in one window, counted as UTF-8 of the text's NFKC form: a window of N bytes is at
		 * most N tokens in any language. From 1KB to 4MB.
		 */
		private DataSize size = DataSize.ofBytes(WindowSettings.DEFAULTS.size());

		/**
		 * Bytes that consecutive windows share at least, so that a sentence, a card number or a URL across
		 * a window's edge lies whole in one window. At most half of size.
		 */
		private DataSize overlap = DataSize.ofBytes(WindowSettings.DEFAULTS.overlap());

		/**
		 * Most windows of one text screened at the same time, from 1 to 32.
		 */
		private int parallelism = WindowSettings.DEFAULTS.parallelism();

		/**
		 * Most windows one text is cut into. Longer text is refused before anything is sent, whether or not
		 * screening fails open.
		 */
		private int maxWindows = WindowSettings.DEFAULTS.maxWindows();

		public DataSize getSize() {
			return this.size;
		}

		public void setSize(DataSize size) {
			this.size = size;
		}

		public DataSize getOverlap() {
			return this.overlap;
		}

		public void setOverlap(DataSize overlap) {
			this.overlap = overlap;
		}

		public int getParallelism() {
			return this.parallelism;
		}

		public void setParallelism(int parallelism) {
			this.parallelism = parallelism;
		}

		public int getMaxWindows() {
			return this.maxWindows;
		}

		public void setMaxWindows(int maxWindows) {
			this.maxWindows = maxWindows;
		}

	}

	/**
	 * Multi-language detection, sent with every screening: prompts, responses, windows of long text,
	 * media, documents and tool calls.
	 */
	public static class MultiLanguageDetection {

		/**
		 * Whether Model Armor screens content in its own language rather than as English. Unset: the
		 * template's setting.
		 */
		private @Nullable Boolean enabled;

		/**
		 * The language of the content, a BCP 47 code such as 'de' or 'pt-BR'. Unset: Model Armor detects it.
		 */
		private @Nullable String sourceLanguage;

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable String getSourceLanguage() {
			return this.sourceLanguage;
		}

		public void setSourceLanguage(@Nullable String sourceLanguage) {
			this.sourceLanguage = sourceLanguage;
		}

	}

}
