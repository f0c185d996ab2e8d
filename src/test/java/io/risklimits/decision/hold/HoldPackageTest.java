package io.risklimits.decision.hold;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class HoldPackageTest {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.risklimits");

    @Test
    void theHoldRulesDependOnTheJdkAndTheDecisionDomainAlone() {
        noClasses()
                .that()
                .resideInAPackage("io.risklimits.decision.hold")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages("java..", "io.risklimits.decision", "io.risklimits.decision.hold")
                .check(PRODUCTION);
    }
}
