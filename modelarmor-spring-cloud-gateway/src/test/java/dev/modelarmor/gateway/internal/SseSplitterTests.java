package dev.modelarmor.gateway.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The events of a stream, whatever its network chunks.
 */
class SseSplitterTests {

	@Test
	void eventsAreCutAtBlankLinesWhateverTheChunksAndTheLineEnds() {
		String stream = "data: one\n\ndata: two\r\n\r\nevent: x\rdata: three\r\rdata: ünïcödé €\n\n";
		byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
		for (int size = 1; size <= bytes.length; size++) {
			SseSplitter splitter = new SseSplitter(1024);
			List<String> events = new ArrayList<>();
			for (int i = 0; i < bytes.length; i += size) {
				events.addAll(splitter.accept(Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + size))));
			}
			events.addAll(splitter.finish());
			assertThat(events).as("chunks of %d bytes", size)
				.extracting((raw) -> SseEvent.parse(raw).data())
				.containsExactly("one", "two", "three", "ünïcödé €");
			assertThat(SseEvent.parse(events.get(2)).name()).isEqualTo("x");
			assertThat(String.join("", events)).as("every byte forwarded, chunks of %d", size)
				.isIn(stream, stream.replace("\r\n\r\n", "\r\n\r"));
		}
	}

	@Test
	void aStreamEndingWithoutABlankLineKeepsItsLastEvent() {
		SseSplitter splitter = new SseSplitter(1024);
		assertThat(splitter.accept("data: one\n\ndata: [DONE]".getBytes(StandardCharsets.UTF_8))).hasSize(1);
		assertThat(splitter.finish()).extracting((raw) -> SseEvent.parse(raw).data()).containsExactly("[DONE]");
	}

	@Test
	void anEventLargerThanTheLimitIsBadInputBeforeMoreIsHeld() {
		SseSplitter splitter = new SseSplitter(16);
		assertThatExceptionOfType(BadInput.class)
			.isThrownBy(() -> splitter.accept("data: 0123456789abcdef".getBytes(StandardCharsets.UTF_8)))
			.withMessageContaining("16 bytes");
	}

	@Test
	void multiLineDataIsJoinedAndCommentsSkipped() {
		SseEvent event = SseEvent.parse(": keep-alive\ndata:{\"a\":\ndata: 1}\n\n");
		assertThat(event.data()).isEqualTo("{\"a\":\n1}");
		assertThat(event.name()).isNull();
	}

}
