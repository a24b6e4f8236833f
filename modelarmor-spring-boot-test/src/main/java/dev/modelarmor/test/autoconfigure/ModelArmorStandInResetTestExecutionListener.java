package dev.modelarmor.test.autoconfigure;

import dev.modelarmor.resilience.ModelArmorCircuitBreaker;
import dev.modelarmor.retry.RetryBudget;
import dev.modelarmor.test.ModelArmorStandIn;
import dev.modelarmor.test.VirtualRetryTime;

import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.support.AbstractTestExecutionListener;

/**
 * Resets the {@link ModelArmorStandIn}, the {@link VirtualRetryTime}, the {@link ModelArmorCircuitBreaker}
 * and the {@link RetryBudget} of a test's application context before and after each test method, as
 * Spring resets its Mockito mocks: what one test programmed or received never reaches the next (an outage
 * one test programs leaves neither the breaker open nor the budget spent for the next), and requests held by a stall end with
 * their test. Does nothing for a
 * context that has neither, and never loads a context.
 */
final class ModelArmorStandInResetTestExecutionListener extends AbstractTestExecutionListener {

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE - 100;
	}

	@Override
	public void beforeTestMethod(TestContext testContext) {
		reset(testContext);
	}

	@Override
	public void afterTestMethod(TestContext testContext) {
		reset(testContext);
	}

	private static void reset(TestContext testContext) {
		if (!testContext.hasApplicationContext()) {
			return;
		}
		ApplicationContext context = testContext.getApplicationContext();
		if (context instanceof ConfigurableApplicationContext configurable && !configurable.isActive()) {
			return;
		}
		context.getBeanProvider(ModelArmorStandIn.class).orderedStream().forEach(ModelArmorStandIn::reset);
		context.getBeanProvider(VirtualRetryTime.class).orderedStream().forEach(VirtualRetryTime::reset);
		context.getBeanProvider(ModelArmorCircuitBreaker.class)
			.orderedStream()
			.forEach(ModelArmorCircuitBreaker::reset);
		context.getBeanProvider(RetryBudget.class).orderedStream().forEach(RetryBudget::reset);
	}

}
