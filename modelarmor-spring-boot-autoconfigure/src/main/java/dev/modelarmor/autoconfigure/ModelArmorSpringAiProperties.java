package dev.modelarmor.autoconfigure;

import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions;
import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions.OnBlock;
import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions.StreamMode;
import dev.modelarmor.ai.document.ModelArmorDocumentOptions;
import dev.modelarmor.ai.document.ModelArmorDocumentOptions.OnBlockedDocument;
import dev.modelarmor.ai.tool.ModelArmorToolOptions;
import dev.modelarmor.ai.tool.ModelArmorToolOptions.OnBlockedTool;
import dev.modelarmor.screening.MatchAction;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties of the Spring AI integration ({@code modelarmor.spring-ai.*}): the advisor, retrieved
 * documents and tool calls. Their defaults are those of {@link ModelArmorAdvisorOptions#DEFAULTS}.
 */
@ConfigurationProperties("modelarmor.spring-ai")
public class ModelArmorSpringAiProperties {

	private final Advisor advisor = new Advisor();

	public Advisor getAdvisor() {
		return this.advisor;
	}

	/**
	 * The Model Armor advisor added to every Spring AI ChatClient.Builder.
	 */
	public static class Advisor {

		/**
		 * Whether to add the Model Armor advisor to every ChatClient built from Spring AI's
		 * ChatClient.Builder. Whether its screening fails open comes from modelarmor.screening.fail-open.
		 */
		private boolean enabled;

		/**
		 * Template the advisor screens with. When unset or empty: modelarmor.template-id.
		 */
		private @Nullable String template;

		/**
		 * What a match does: block, deidentify (go on with Sensitive Data Protection's de-identified text
		 * when SDP alone matched, otherwise block) or log-only.
		 */
		private MatchAction onMatch = ModelArmorAdvisorOptions.DEFAULTS.onMatch();

		/**
		 * What a blocked prompt or answer returns: refuse (the refusal as the assistant's answer, with
		 * modelarmor.* metadata) or throw (ModelArmorViolationException, or
		 * ModelArmorNotScreenedException when screening could not complete).
		 */
		private OnBlock onBlock = ModelArmorAdvisorOptions.DEFAULTS.onBlock();

		/**
		 * The assistant's answer to a blocked call when on-block is refuse. Never names the content.
		 */
		private String refusal = ModelArmorAdvisorOptions.DEFAULT_REFUSAL;

		/**
		 * Order of the advisor in the ChatClient's chain; the lower, the earlier. The default runs it
		 * before chat memory and tool calling.
		 */
		private int order = ModelArmorAdvisorOptions.DEFAULT_ORDER;

		/**
		 * How a streamed answer is screened: segmented (held back until the segment that holds it is
		 * screened; progressive a segment at a time, one Model Armor call per segment), buffered (the whole
		 * answer once, before any of it is emitted) or per-chunk (each chunk as it arrives; earlier chunks
		 * are out when a later one is blocked, a match split over chunks can go unseen, and each chunk
		 * costs a Model Armor call).
		 */
		private StreamMode streamMode = ModelArmorAdvisorOptions.DEFAULTS.streamMode();

		/**
		 * UTF-8 bytes of a streamed answer that wait for one screening with stream-mode segmented, from
		 * 1KB to 4MB. A quarter of each segment is held back and screened again with the next one, so that
		 * a match across chunks is found before any of it is emitted.
		 */
		private DataSize streamSegment = DataSize.ofBytes(ModelArmorAdvisorOptions.DEFAULT_STREAM_SEGMENT);

		/**
		 * Whether to start the model call while the prompt is being screened. The answer is released
		 * (or streamed) only after the prompt's verdict, tool calls wait for it, and a blocked prompt's
		 * answer is discarded: the model's tokens are spent on blocked prompts. Not with on-match
		 * deidentify. Requests through a chain with a chat memory advisor are screened first.
		 */
		private boolean parallelPromptScreening = ModelArmorAdvisorOptions.DEFAULT_PARALLEL_PROMPT_SCREENING;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable String getTemplate() {
			return this.template;
		}

		public void setTemplate(@Nullable String template) {
			this.template = template;
		}

		public MatchAction getOnMatch() {
			return this.onMatch;
		}

		public void setOnMatch(MatchAction onMatch) {
			this.onMatch = onMatch;
		}

		public OnBlock getOnBlock() {
			return this.onBlock;
		}

		public void setOnBlock(OnBlock onBlock) {
			this.onBlock = onBlock;
		}

		public String getRefusal() {
			return this.refusal;
		}

		public void setRefusal(String refusal) {
			this.refusal = refusal;
		}

		public int getOrder() {
			return this.order;
		}

		public void setOrder(int order) {
			this.order = order;
		}

		public StreamMode getStreamMode() {
			return this.streamMode;
		}

		public void setStreamMode(StreamMode streamMode) {
			this.streamMode = streamMode;
		}

		public DataSize getStreamSegment() {
			return this.streamSegment;
		}

		public void setStreamSegment(DataSize streamSegment) {
			this.streamSegment = streamSegment;
		}

		public boolean isParallelPromptScreening() {
			return this.parallelPromptScreening;
		}

		public void setParallelPromptScreening(boolean parallelPromptScreening) {
			this.parallelPromptScreening = parallelPromptScreening;
		}

	}

	private final Documents documents = new Documents();

	private final Tools tools = new Tools();

	public Documents getDocuments() {
		return this.documents;
	}

	public Tools getTools() {
		return this.tools;
	}

	/**
	 * Screening of the documents that Spring AI's retrieval advisors add to a prompt.
	 */
	public static class Documents {

		/**
		 * Whether to provide a ModelArmorDocumentScreener and, with spring-ai-rag on the class path, a
		 * ModelArmorDocumentPostProcessor to add to a RetrievalAugmentationAdvisor. Whether a document that
		 * cannot be screened is blocked comes from modelarmor.screening.fail-open.
		 */
		private boolean enabled;

		/**
		 * Template the documents are screened with. When unset or empty: modelarmor.template-id.
		 */
		private @Nullable String template;

		/**
		 * What a match in a document does: block, deidentify (go on with Sensitive Data Protection's
		 * de-identified text when SDP alone matched, otherwise block) or log-only.
		 */
		private MatchAction onMatch = ModelArmorDocumentOptions.DEFAULTS.onMatch();

		/**
		 * What a blocked document does: drop (left out of the prompt; the answer's context says how many
		 * and by which filters) or throw (the whole call fails).
		 */
		private OnBlockedDocument onBlock = ModelArmorDocumentOptions.DEFAULTS.onBlock();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable String getTemplate() {
			return this.template;
		}

		public void setTemplate(@Nullable String template) {
			this.template = template;
		}

		public MatchAction getOnMatch() {
			return this.onMatch;
		}

		public void setOnMatch(MatchAction onMatch) {
			this.onMatch = onMatch;
		}

		public OnBlockedDocument getOnBlock() {
			return this.onBlock;
		}

		public void setOnBlock(OnBlockedDocument onBlock) {
			this.onBlock = onBlock;
		}

	}

	/**
	 * Screening of tool calls and their results in Spring AI's tool calling.
	 */
	public static class Tools {

		/**
		 * Whether to screen every tool that Spring AI's tool calling runs: the arguments the model wrote
		 * before the tool runs, the result before the model reads it. Whether a tool call that cannot be
		 * screened is blocked comes from modelarmor.screening.fail-open.
		 */
		private boolean enabled;

		/**
		 * Template the tool calls and results are screened with. When unset or empty:
		 * modelarmor.template-id.
		 */
		private @Nullable String template;

		/**
		 * What a match does: block, deidentify (go on with Sensitive Data Protection's de-identified
		 * result when SDP alone matched; arguments are JSON and block) or log-only.
		 */
		private MatchAction onMatch = ModelArmorToolOptions.DEFAULTS.onMatch();

		/**
		 * What a blocked tool call or result does: refuse (the tool does not run, or its result is
		 * withheld, and the model reads the refusal as the tool's result) or throw (the whole call fails).
		 */
		private OnBlockedTool onBlock = ModelArmorToolOptions.DEFAULTS.onBlock();

		/**
		 * What the model reads as a blocked tool's result when on-block is refuse. Never names the content.
		 */
		private String refusal = ModelArmorToolOptions.DEFAULT_REFUSAL;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable String getTemplate() {
			return this.template;
		}

		public void setTemplate(@Nullable String template) {
			this.template = template;
		}

		public MatchAction getOnMatch() {
			return this.onMatch;
		}

		public void setOnMatch(MatchAction onMatch) {
			this.onMatch = onMatch;
		}

		public OnBlockedTool getOnBlock() {
			return this.onBlock;
		}

		public void setOnBlock(OnBlockedTool onBlock) {
			this.onBlock = onBlock;
		}

		public String getRefusal() {
			return this.refusal;
		}

		public void setRefusal(String refusal) {
			this.refusal = refusal;
		}

	}

}
