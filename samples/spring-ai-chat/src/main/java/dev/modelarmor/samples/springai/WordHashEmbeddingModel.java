package dev.modelarmor.samples.springai;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

/**
 * A deterministic stand-in for an embedding model, so that the sample's knowledge base needs none: a
 * text's vector counts its words, each hashed into one of {@value #DIMENSIONS} buckets, normalized to
 * length 1. Texts that share words are near each other; it knows nothing of meaning.
 */
final class WordHashEmbeddingModel implements EmbeddingModel {

	private static final int DIMENSIONS = 64;

	private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

	@Override
	public EmbeddingResponse call(EmbeddingRequest request) {
		List<Embedding> embeddings = new ArrayList<>();
		List<String> texts = request.getInstructions();
		for (int i = 0; i < texts.size(); i++) {
			embeddings.add(new Embedding(vector(texts.get(i)), i));
		}
		return new EmbeddingResponse(embeddings);
	}

	@Override
	public float[] embed(Document document) {
		String text = document.getText();
		return vector((text != null) ? text : "");
	}

	@Override
	public int dimensions() {
		return DIMENSIONS;
	}

	static float[] vector(String text) {
		float[] vector = new float[DIMENSIONS];
		Matcher words = WORD.matcher(text.toLowerCase(Locale.ROOT));
		while (words.find()) {
			vector[Math.floorMod(words.group().hashCode(), DIMENSIONS)] += 1f;
		}
		double length = 0;
		for (float value : vector) {
			length += value * value;
		}
		if (length > 0) {
			float norm = (float) Math.sqrt(length);
			for (int i = 0; i < DIMENSIONS; i++) {
				vector[i] /= norm;
			}
		}
		return vector;
	}

}
