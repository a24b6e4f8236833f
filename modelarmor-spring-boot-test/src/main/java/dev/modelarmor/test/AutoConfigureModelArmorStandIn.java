package dev.modelarmor.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.PropertyMapping;

/**
 * Runs the application's real Model Armor client against an in-process {@link ModelArmorStandIn} (a
 * stand-in, <b>not Model Armor</b>) on loopback: the auto-configured {@code ModelArmorTemplate}, its
 * retries, {@code @ModelArmorGuarded} methods and the Spring AI advisor all work as in production, with
 * no Google account, no network and no stubs written by hand. Put it on a {@code @SpringBootTest} or on a
 * slice such as {@code @WebMvcTest} (it brings the starter's client and guard auto-configurations along,
 * which a slice leaves out):
 *
 * <pre>{@code
 * @SpringBootTest
 * @AutoConfigureMockMvc
 * @AutoConfigureModelArmorStandIn
 * class ChatControllerTests {
 *
 *     @Autowired
 *     ModelArmorStandIn modelArmor;   // program verdicts and faults, read what it received
 * }
 * }</pre>
 *
 * <p>The application's client is pointed at the stand-in: {@code modelarmor.endpoint} is the stand-in's
 * URL and {@code modelarmor.credentials.enabled} is {@code false}, whatever the application sets;
 * {@code modelarmor.project-id} and {@code modelarmor.template-id} default to {@code stand-in-project} and
 * {@code stand-in-template} where the application sets none. Waits between retries take no real time
 * ({@link VirtualRetryTime}) unless {@link #realTimeRetries()} is set, or the application defines its own
 * {@code RetryRuntime} bean. The stand-in is reset before and after each test method. A context without
 * this annotation is left as it is.
 *
 * @see ModelArmorStandIn
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
@PropertyMapping("modelarmor.test.stand-in")
public @interface AutoConfigureModelArmorStandIn {

	/**
	 * Whether the client waits in real time between retries. By default the waits are skipped and the
	 * client's clock jumps instead ({@link VirtualRetryTime}), so a retried call takes milliseconds.
	 * @return {@code true} for real waits
	 */
	boolean realTimeRetries() default false;

}
