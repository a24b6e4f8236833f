package dev.modelarmor.gateway.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a stream's bytes into server-sent events, whatever the network's chunks: an event ends at a blank
 * line, its lines ending in CR LF, LF or CR. Bytes are decoded only once an event is whole, so a character
 * split across chunks stays whole. An event larger than the limit is bad input: no more than the limit is
 * ever held. Not thread-safe: one stream gives it its chunks one at a time.
 */
final class SseSplitter {

	private final int maxEventBytes;

	private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

	private boolean atLineStart = true;

	private boolean lastCr;

	SseSplitter(int maxEventBytes) {
		this.maxEventBytes = maxEventBytes;
	}

	/**
	 * Takes the next bytes of the stream.
	 * @param bytes the bytes
	 * @return the events they complete, raw, in order
	 * @throws BadInput when an event grows past the limit
	 */
	List<String> accept(byte[] bytes) {
		List<String> events = new ArrayList<>(2);
		for (byte b : bytes) {
			this.pending.write(b);
			if (b == '\n' && this.lastCr) {
				this.lastCr = false;
				if (this.pending.size() == 1) {
					// the LF of a CR LF that ended the previous event: it belongs to it, not to a new one
					this.pending.reset();
					forward(events, "\n");
				}
				continue;
			}
			this.lastCr = (b == '\r');
			if (b == '\n' || b == '\r') {
				if (this.atLineStart) {
					events.add(this.pending.toString(StandardCharsets.UTF_8));
					this.pending.reset();
				}
				this.atLineStart = true;
			}
			else {
				this.atLineStart = false;
			}
			if (this.pending.size() > this.maxEventBytes) {
				throw new BadInput("an event of the streamed answer is larger than " + this.maxEventBytes + " bytes");
			}
		}
		return events;
	}

	/**
	 * The stream ended.
	 * @return the last event when the stream ended without the blank line that should close it
	 */
	List<String> finish() {
		String rest = this.pending.toString(StandardCharsets.UTF_8);
		this.pending.reset();
		return rest.isBlank() ? List.of() : List.of(rest + "\n\n");
	}

	/** Adds a line break to the previous event's raw text, so that every byte is forwarded. */
	private static void forward(List<String> events, String lineBreak) {
		if (!events.isEmpty()) {
			int last = events.size() - 1;
			events.set(last, events.get(last) + lineBreak);
		}
	}

}
