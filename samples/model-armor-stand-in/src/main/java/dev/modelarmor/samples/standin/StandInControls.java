package dev.modelarmor.samples.standin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Controls of the local stand-in: {@code POST /stand-in/faults} with a JSON array
 * of statuses, e.g. {@code [503, 503, 429]}, queues faults (204); {@code GET /stand-in/stats} shows the
 * requests counted per method and the faults still queued.
 */
@RestController
public class StandInControls {

	private final FaultQueue faults;

	private final StandInStats stats;

	StandInControls(FaultQueue faults, StandInStats stats) {
		this.faults = faults;
		this.stats = stats;
	}

	/**
	 * Queues faults.
	 * @param statuses HTTP statuses from 400 to 599
	 * @return 204
	 */
	@PostMapping("/stand-in/faults")
	public ResponseEntity<Void> addFaults(@RequestBody List<Integer> statuses) {
		try {
			this.faults.add(statuses);
		}
		catch (IllegalArgumentException ex) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, ex.getMessage(), ex);
		}
		return ResponseEntity.noContent().build();
	}

	/**
	 * The counts.
	 * @return {@code {"requests": {"sanitizeUserPrompt": 3, ...}, "pendingFaults": 0}}
	 */
	@GetMapping("/stand-in/stats")
	public Map<String, Object> stats() {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("requests", this.stats.snapshot());
		body.put("pendingFaults", this.faults.pending());
		return body;
	}

}
