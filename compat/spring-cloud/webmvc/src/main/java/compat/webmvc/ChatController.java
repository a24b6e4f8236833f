package compat.webmvc;

import dev.modelarmor.guard.ModelArmorGuarded;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ChatController {

	@PostMapping("/chat")
	@ModelArmorGuarded
	String chat(@RequestBody String message) {
		return "You said: " + message;
	}

}
