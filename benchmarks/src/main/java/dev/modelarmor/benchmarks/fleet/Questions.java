package dev.modelarmor.benchmarks.fleet;

import dev.modelarmor.guard.ModelArmorGuarded;

/**
 * What each instance of the fleet harness serves: guarded methods, as an application has them, whose
 * body is free so that a call's time is the guard's.
 */
public class Questions {

	/**
	 * Screens the prompt only: one Model Armor call per guarded call, so that the load offered is the
	 * load that reaches Model Armor.
	 * @param question the prompt
	 * @return a fixed answer
	 */
	@ModelArmorGuarded(screenResponse = false)
	public String ask(String question) {
		return "The train to Lyon leaves at nine.";
	}

	/**
	 * Screens the prompt and the answer: two screenings, each looked up in and written to the verdict
	 * cache when it is on.
	 * @param question the prompt
	 * @return a fixed answer
	 */
	@ModelArmorGuarded
	public String askAndScreenTheAnswer(String question) {
		return "The train to Lyon leaves at nine.";
	}

}
