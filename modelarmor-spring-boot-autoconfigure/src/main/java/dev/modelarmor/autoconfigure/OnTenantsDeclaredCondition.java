package dev.modelarmor.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when the environment declares at least one tenant ({@code modelarmor.tenants.<name>.*}).
 */
final class OnTenantsDeclaredCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		boolean declared = Binder.get(context.getEnvironment())
			.bind(TenantSettingsMapper.TENANTS_PROPERTY, Bindable.mapOf(String.class, Object.class))
			.map((tenants) -> !tenants.isEmpty())
			.orElse(false);
		return declared ? ConditionOutcome.match("modelarmor.tenants declares tenants")
				: ConditionOutcome.noMatch("modelarmor.tenants declares no tenant");
	}

}
