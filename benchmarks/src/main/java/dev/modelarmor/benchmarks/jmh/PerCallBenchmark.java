package dev.modelarmor.benchmarks.jmh;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.cloud.modelarmor.v1.DataItem;
import com.google.cloud.modelarmor.v1.ModelArmorClient;
import com.google.cloud.modelarmor.v1.ModelArmorSettings;
import com.google.cloud.modelarmor.v1.SanitizeUserPromptRequest;
import com.google.cloud.modelarmor.v1.SanitizeUserPromptResponse;
import com.google.cloud.modelarmor.v1.TemplateName;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.client.SanitizationResult;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;

/**
 * The cost of one sanitize call on loopback, against one minimal local server, in one run: a raw JDK
 * {@code HttpClient} POST (the floor), the template's HTTP layer alone, {@link ModelArmorTemplate#sanitizeUserPrompt(String)},
 * and the official client over its HTTP/JSON transport without credentials. Run with {@code -t 1} and {@code -t 8}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = { "-Dsun.net.httpserver.nodelay=true", "-Xmx1g" })
@State(Scope.Benchmark)
public class PerCallBenchmark {

	static final String PROMPT = "What is the capital of France? Please answer in one word.";

	static final String PROJECT = "bench-project";

	static final String LOCATION = "us-central1";

	static final String TEMPLATE = "bench-template";

	private LoopbackServer server;

	private HttpClient raw;

	private URI rawUri;

	private byte[] rawBody;

	private RestClient restClient;

	private ModelArmorTemplate template;

	private ModelArmorClient official;

	private String templateName;

	@Setup(Level.Trial)
	public void start() throws IOException {
		this.server = LoopbackServer.start();
		this.raw = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
		this.rawUri = URI.create(this.server.url() + "/v1/projects/" + PROJECT + "/locations/" + LOCATION + "/templates/"
				+ TEMPLATE + ":sanitizeUserPrompt");
		this.rawBody = ("{\"userPromptData\":{\"text\":\"" + PROMPT + "\"}}").getBytes(StandardCharsets.UTF_8);
		RestClient.Builder http = RestClient.builder();
		this.template = ModelArmorTemplate.builder()
			.restClientBuilder(http)
			.endpoint(ModelArmorEndpoint.of(this.server.url()))
			.projectId(PROJECT)
			.location(LOCATION)
			.templateId(TEMPLATE)
			.build();
		// The template's builder configured this one with its transport (base URL, request factory): a
		// second client built from it posts through the same transport, without the template around it.
		this.restClient = http.build();
		this.official = ModelArmorClient.create(ModelArmorSettings.newHttpJsonBuilder()
			.setEndpoint(this.server.url())
			.setCredentialsProvider(NoCredentialsProvider.create())
			.build());
		this.templateName = TemplateName.of(PROJECT, LOCATION, TEMPLATE).toString();
	}

	URI rawUri() {
		return this.rawUri;
	}

	byte[] rawBody() {
		return this.rawBody;
	}

	@TearDown(Level.Trial)
	public void stop() {
		this.official.close();
		this.server.close();
	}

	/** The floor: a JDK {@code HttpClient} POST of a {@code byte[]} body, the answer read as bytes. */
	@Benchmark
	public byte[] raw() throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(this.rawUri)
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(30))
			.POST(HttpRequest.BodyPublishers.ofByteArray(this.rawBody))
			.build();
		HttpResponse<byte[]> response = this.raw.send(request, HttpResponse.BodyHandlers.ofByteArray());
		if (response.statusCode() != 200) {
			throw new IllegalStateException("HTTP " + response.statusCode());
		}
		return response.body();
	}

	/**
	 * The template's HTTP layer alone: the {@code RestClient} and transport it is built with, posting the
	 * same bytes to the same URI, without retry template, JSON or observer.
	 */
	@Benchmark
	public byte[] restClient() {
		byte[] answer = this.restClient.post()
			.uri(this.rawUri)
			.contentType(MediaType.APPLICATION_JSON)
			.body(this.rawBody)
			.retrieve()
			.body(byte[].class);
		if (answer == null) {
			throw new IllegalStateException("no answer");
		}
		return answer;
	}

	@Benchmark
	public SanitizationResult template() {
		return this.template.sanitizeUserPrompt(PROMPT);
	}

	/** The non-blocking path of the same template, its future waited for: the same attempt step, another transport. */
	@Benchmark
	public SanitizationResult templateAsync() {
		return this.template.sanitizeUserPromptAsync(dev.modelarmor.client.DataItem.text(PROMPT),
				dev.modelarmor.client.SanitizeOptions.NONE, Runnable::run).join();
	}

	@Benchmark
	public SanitizeUserPromptResponse official() {
		return this.official.sanitizeUserPrompt(SanitizeUserPromptRequest.newBuilder()
			.setName(this.templateName)
			.setUserPromptData(DataItem.newBuilder().setText(PROMPT))
			.build());
	}

}
