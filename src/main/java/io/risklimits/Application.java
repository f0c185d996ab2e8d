package io.risklimits;

import io.risklimits.cli.OperatorCli;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class Application {

    public static void main(String[] args) {
        // a command (java -jar risk-limits.jar limits show) runs the operator CLI without a Spring context;
        // the service's own arguments are --name=value settings
        if (OperatorCli.handles(args)) {
            OperatorCli.exit(args);
        }
        SpringApplication.run(Application.class, args);
    }
}
