package dev.modelarmor.architecture;

import java.util.List;

import dev.modelarmor.architecture.internal.Plumbing;

/**
 * A public type of an API package that names an internal type where a user sees it, and where a user does
 * not: the architecture test's rule must report the first and only the first.
 */
public class LeakyApi extends Plumbing {

	/** A field whose type argument is internal. */
	public List<Plumbing> shared = List.of();

	@SuppressWarnings("unused")
	private Plumbing hidden = new Plumbing();

	/**
	 * An internal type as a return type.
	 * @return the plumbing
	 */
	public Plumbing plumbing() {
		return this.hidden;
	}

	Plumbing packagePrivate() {
		return this.hidden;
	}

	/** A public nested type whose constructor takes an internal type. */
	public static class Nested {

		/**
		 * Takes plumbing.
		 * @param plumbing the plumbing
		 */
		public Nested(Plumbing plumbing) {
		}

	}

	/** A nested type users cannot see: whatever it names is not API. */
	static class Hidden {

		public Plumbing hidden() {
			return new Plumbing();
		}

	}

}
