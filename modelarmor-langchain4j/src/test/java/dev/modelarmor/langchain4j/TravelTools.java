package dev.modelarmor.langchain4j;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;

/** Real tools: what they return is scripted, each run recorded. */
class TravelTools {

	final List<String> runs = new CopyOnWriteArrayList<>();

	volatile String weatherAnswer = "Sunny, 21 degrees.";

	@Tool("Tells the weather of a city")
	String weather(@P("the city") String city) {
		this.runs.add("weather " + city);
		return this.weatherAnswer;
	}

}
