package dev.modelarmor.samples.standin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.modelarmor.test.ModelArmorStandIn;
import dev.modelarmor.test.ReceivedRequest;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Controls of the local stand-in, on the application's own port: {@code POST /stand-in/faults} with a JSON
 * array of statuses, e.g. {@code [503, 503, 429]}, queues faults (204); {@code GET /stand-in/stats} shows
 * the requests the stand-in received per method (every retry attempt counts) and the faults still queued.
 * The statuses of {@code stand-in.faults} are queued at startup.
 */
@RestController
public class StandInControls {

	private final ModelArmorStandIn standIn;

	StandInControls(ModelArmorStandIn standIn, StandInProperties properties) {
		this.standIn = standIn;
		addFaults(properties.faults());
	}

	/**
	 * Queues faults.
	 * @param statuses HTTP statuses from 400 to 599
	 * @return 204
	 */
	@PostMapping("/stand-in/faults")
	public ResponseEntity<Void> faults(@RequestBody List<Integer> statuses) {
		try {
			addFaults(statuses);
		}
		catch (IllegalArgumentException ex) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, ex.getMessage(), ex);
		}
		return ResponseEntity.noContent().build();
	}

	/**
	 * The counts.
	 * @return {@code {"requests": {"sanitizeUserPrompt": 3, ...}, "paths": ["/v1/projects/p/locations/l/templates/t:sanitizeUserPrompt", ...], "pendingFaults": 0}}
	 */
	@GetMapping("/stand-in/stats")
	public Map<String, Object> stats() {
		Map<String, Integer> requests = new TreeMap<>();
		List<String> paths = new ArrayList<>();
		for (ReceivedRequest request : this.standIn.received()) {
			requests.merge(request.operation().method(), 1, Integer::sum);
			// the path each request was sent to: which template, in which location
			paths.add("/v1/projects/" + request.project() + "/locations/" + request.location() + "/templates/"
					+ request.template() + ":" + request.operation().method());
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("requests", requests);
		body.put("paths", paths);
		body.put("pendingFaults", this.standIn.pendingFaults());
		return body;
	}

	private void addFaults(List<Integer> statuses) {
		for (Integer status : statuses) {
			if (status == null || status < 400 || status > 599) {
				throw new IllegalArgumentException("A fault must be an HTTP status from 400 to 599: " + status);
			}
		}
		statuses.forEach(this.standIn::failWith);
	}

}
