# ---- Build stage: compile and package the Spring Boot jar with the Maven wrapper ----
FROM eclipse-temurin:17-jdk AS build
WORKDIR /workspace

# Copy only what the build needs: target/ and data/ (embedded PostgreSQL files) on the host stay out
COPY mvnw pom.xml ./
COPY .mvn .mvn
COPY src src

# The cache mount keeps the wrapper's Maven download and the local repository (~/.m2) between builds
RUN --mount=type=cache,target=/root/.m2 \
    chmod +x mvnw && ./mvnw -B -DskipTests package

# ---- Runtime stage: JRE only, the packaged jar, a non-root user ----
FROM eclipse-temurin:17-jre
WORKDIR /app

# Unprivileged system account that owns the working directory
RUN groupadd --system app \
 && useradd --system --gid app --home-dir /app --no-create-home --shell /usr/sbin/nologin app \
 && chown app:app /app

COPY --from=build --chown=app:app /workspace/target/risk-limits-*.jar /app/app.jar

USER app
ENTRYPOINT ["java","-jar","/app/app.jar"]
