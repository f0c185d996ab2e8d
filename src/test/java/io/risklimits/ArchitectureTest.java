package io.risklimits;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaParameter;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package structure, checked: packages by feature without cycles, and the decision domain (events,
 * windows, limits, the policy, decisions) free of its adapters, so it can be read and tested without
 * a database or a broker; what the features share depends on neither Kafka nor JDBC; and no annotation
 * reads a risk.* setting from a placeholder, so each default lives in its properties record only.
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
    void theHoldRulesDependOnTheJdkAndTheDecisionDomainAlone() {
        noClasses()
                .that()
                .resideInAPackage("io.risklimits.decision.hold")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages("java..", "io.risklimits.decision", "io.risklimits.decision.hold")
                .check(PRODUCTION);
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

    /**
     * The store's package-private classes serve production code only: a method that only tests call
     * (the benchmark's baseline among them) belongs in the test sources. The methods the compiler gives
     * every enum (values, valueOf) are not the store's own.
     */
    @Test
    void theDecisionStoresInnerMethodsAreCalledByProductionCode() {
        methods()
                .that()
                .areDeclaredInClassesThat()
                .resideInAPackage("io.risklimits.decision.store")
                .and()
                .areDeclaredInClassesThat()
                .areNotPublic()
                .and()
                .areNotPrivate()
                .and(DescribedPredicate.not(compilerGeneratedEnumMethods()))
                .should(beCalledInProductionCode())
                .check(PRODUCTION);
    }

    private static DescribedPredicate<JavaMethod> compilerGeneratedEnumMethods() {
        return DescribedPredicate.describe(
                "an enum's values() or valueOf(String)",
                method -> method.getOwner().isEnum()
                        && (method.getName().equals("values")
                                || method.getName().equals("valueOf")));
    }

    @Test
    void noMainSourceFileIsLongerThanThreeHundredLines() throws IOException {
        List<String> tooLong;
        try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
            tooLong = sources.filter(path -> path.toString().endsWith(".java"))
                    .filter(ArchitectureTest::isLongerThanThreeHundredLines)
                    .map(Path::toString)
                    .toList();
        }
        assertThat(tooLong).as("main source files over 300 lines").isEmpty();
    }

    private static boolean isLongerThanThreeHundredLines(Path source) {
        try (Stream<String> lines = Files.lines(source)) {
            return lines.count() > 300;
        } catch (IOException unreadable) {
            throw new IllegalStateException(unreadable);
        }
    }

    private static ArchCondition<JavaMethod> beCalledInProductionCode() {
        Set<String> objectMethods = Set.of("equals", "hashCode", "toString");
        return new ArchCondition<>("be called in production code") {
            @Override
            public void check(JavaMethod method, ConditionEvents events) {
                boolean recordAccessor = method.getOwner().isRecord()
                        && method.getParameters().isEmpty()
                        && method.getOwner().tryGetField(method.getName()).isPresent();
                // called through an interface it implements (a Supplier's get)
                boolean implementsAnInterface = method.getOwner().getAllRawInterfaces().stream()
                        .flatMap(type -> type.getMethods().stream())
                        .anyMatch(declared -> declared.getName().equals(method.getName())
                                && declared.getParameters().size()
                                        == method.getParameters().size());
                boolean called = !method.getAccessesToSelf().isEmpty();
                if (!recordAccessor && !implementsAnInterface && !objectMethods.contains(method.getName()) && !called) {
                    events.add(SimpleConditionEvent.violated(
                            method, method.getFullName() + " is called by no production code"));
                }
            }
        };
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

    @Test
    void noAnnotationReadsARiskSettingFromAPlaceholder() {
        List<String> placeholders = new ArrayList<>();
        for (JavaClass type : PRODUCTION) {
            annotationsOf(type)
                    .forEach(annotation -> annotation.getProperties().forEach((name, value) -> {
                        String text =
                                value instanceof Object[] values ? Arrays.deepToString(values) : String.valueOf(value);
                        if (text.contains("${risk.")) {
                            placeholders.add(type.getName() + ": @"
                                    + annotation.getRawType().getSimpleName() + "(" + name + " = " + text + ")");
                        }
                    }));
        }
        assertThat(placeholders)
                .as("settings are read through their properties records, which hold the defaults")
                .isEmpty();
    }

    private static Stream<JavaAnnotation<?>> annotationsOf(JavaClass type) {
        Stream<JavaAnnotation<?>> members = type.getMembers().stream().flatMap(ArchitectureTest::annotationsOf);
        return Stream.concat(type.getAnnotations().stream(), members);
    }

    private static Stream<JavaAnnotation<?>> annotationsOf(JavaMember member) {
        Stream<JavaAnnotation<?>> own = member.getAnnotations().stream().map(annotation -> annotation);
        if (member instanceof JavaCodeUnit code) {
            Stream<JavaAnnotation<?>> parameters = code.getParameters().stream()
                    .map(JavaParameter::getAnnotations)
                    .flatMap(annotations -> annotations.stream().map(annotation -> annotation));
            return Stream.concat(own, parameters);
        }
        return own;
    }
}
