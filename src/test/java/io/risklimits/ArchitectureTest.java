package io.risklimits;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The package structure, checked: packages by feature without cycles, and the decision domain (events,
 * windows, limits, the policy, decisions) free of its adapters, so it can be read and tested without
 * a database or a broker; what the features share depends on neither Kafka nor JDBC.
 */
class ArchitectureTest {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.risklimits");

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.risklimits.(**)").should().beFreeOfCycles().check(PRODUCTION);
    }

    @Test
    void theDomainKnowsNoAdapter() {
        noClasses()
                .that()
                .resideInAPackage("io.risklimits.decision")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.risklimits.decision.store..",
                        "io.risklimits.decider..",
                        "io.risklimits.kafka..",
                        "io.risklimits.limits..",
                        "io.risklimits.archive..",
                        "io.risklimits.database..",
                        "org.springframework..",
                        "org.apache.kafka..",
                        "java.sql..",
                        "javax.sql..")
                .check(PRODUCTION);
    }

    @Test
    void onlyTheDecisionStoreTalksToTheDecisionTables() {
        noClasses()
                .that()
                .resideInAPackage("io.risklimits.decider..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.springframework.jdbc..", "java.sql..")
                .check(PRODUCTION);
    }

    @Test
    void whatBothFeaturesShareKnowsNeitherKafkaNorJdbc() {
        noClasses()
                .that()
                .resideInAPackage("io.risklimits.shared..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.apache.kafka..",
                        "org.springframework.kafka..",
                        "org.springframework.jdbc..",
                        "org.springframework.dao..",
                        "java.sql..",
                        "javax.sql..")
                .check(PRODUCTION);
    }
}
