package io.risklimits;

import io.risklimits.cli.SendEventCommand;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class Application {

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("send-event")) {
            System.exit(SendEventCommand.run(List.of(args).subList(1, args.length), System.out, System.err));
        }
        SpringApplication.run(Application.class, args);
    }
}
