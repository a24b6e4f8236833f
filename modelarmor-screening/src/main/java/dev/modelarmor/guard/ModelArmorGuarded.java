package dev.modelarmor.guard;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorViolationException;

/**
 * Screens a method's prompt with Model Armor before the method runs, and its answer after. Put it on
 * the methods that talk to an LLM, or on a class for all of its public instance methods (those it
 * inherits and those of its subclasses included); an annotation on a method wins over the one on its
 * class.
 *
 * <p>Applied through a Spring proxy: calls from inside the same object (self-invocation) are not
 * screened. So that no guarded method is silently left unscreened, one in which no text can be found,
 * whose expression reads a variable the guard does not set, or that no proxy can reach (private, static
 * or final) fails at startup, naming the method.
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface ModelArmorGuarded {

	/**
	 * The Model Armor template id; empty for {@code modelarmor.template-id}.
	 * @return the template id
	 */
	String template() default "";

	/**
	 * SpEL over the arguments ({@code #p0}, {@code #a0}, {@code #name}, {@code #request.text}) giving the
	 * prompt; empty for the first {@link CharSequence} argument.
	 * @return the prompt expression
	 */
	String prompt() default "";

	/**
	 * SpEL over {@code #result} (and the arguments) giving the answer; empty for the return value when it
	 * is a {@link CharSequence} or an {@code Optional} of one.
	 * @return the response expression
	 */
	String response() default "";

	/**
	 * Whether to screen the prompt before the method runs.
	 * @return {@code true} to screen the prompt
	 */
	boolean screenPrompt() default true;

	/**
	 * Whether to screen the answer after the method ran.
	 * @return {@code true} to screen the answer
	 */
	boolean screenResponse() default true;

	/**
	 * What happens when a filter matches.
	 * @return the action
	 */
	MatchAction onMatch() default MatchAction.BLOCK;

	/**
	 * Whether the method is free of side effects (it only asks the model and returns what it said), so
	 * that its body may run on the caller's thread while its prompt is screened on another: the result is
	 * returned only after the prompt's verdict, and dropped when the prompt is blocked (the call throws
	 * {@link ModelArmorViolationException}, or what a failed screening throws, as without it). The body
	 * runs whatever the verdict, so a blocked prompt's model call is spent; a body that writes, sends or
	 * stores anything must keep the default. Not with {@link MatchAction#DEIDENTIFY}, which needs the
	 * de-identified prompt before the body runs: that combination fails at startup.
	 * @return {@code true} to screen the prompt while the body runs
	 */
	boolean sideEffectFree() default false;

}
