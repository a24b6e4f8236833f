package compat.webflux;

import dev.modelarmor.guard.ModelArmorGuarded;
import reactor.core.publisher.Mono;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ChatController {

	@PostMapping("/chat")
	@ModelArmorGuarded
	Mono<String> chat(@RequestBody String message) {
		return Mono.just("You said: " + message);
	}

}
