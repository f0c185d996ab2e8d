package io.risklimits.startup;

import io.risklimits.shared.StartRefused;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a refused start as Spring Boot's "APPLICATION FAILED TO START" with what to change. */
class StartRefusedFailureAnalyzer extends AbstractFailureAnalyzer<StartRefused> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, StartRefused cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
