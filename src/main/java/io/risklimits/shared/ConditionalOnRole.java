package io.risklimits.shared;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Creates the annotated bean only when risk.roles (default: decider,archiver) names the role. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Conditional(ConditionalOnRole.RoleCondition.class)
public @interface ConditionalOnRole {

    String value();

    class RoleCondition implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String role = (String) metadata.getAnnotationAttributes(ConditionalOnRole.class.getName())
                    .get("value");
            List<String> roles = RiskProperties.rolesBoundBy(Binder.get(context.getEnvironment()));
            return roles.stream().map(String::trim).anyMatch(role::equalsIgnoreCase);
        }
    }
}
