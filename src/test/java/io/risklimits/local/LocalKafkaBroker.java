package io.risklimits.local;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;

/**
 * A single-node KRaft Kafka (broker and controller in one process) on fixed localhost ports, as kafka-storage.sh
 * format and kafka-server-start.sh would run it, keeping its data so topics and committed offsets survive a restart.
 * The tests run on it too (without Docker), so they exercise the broker a newcomer gets.
 */
public final class LocalKafkaBroker {

    private static final int NODE_ID = 1;
    private static final String CONTROLLER_LISTENER = "CONTROLLER";

    private final KafkaRaftServer server;
    private final String bootstrapServers;

    private LocalKafkaBroker(KafkaRaftServer server, String bootstrapServers) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
    }

    public static LocalKafkaBroker start(int port, int controllerPort, Path dataDirectory, int partitions)
            throws Exception {
        // Separate from the partition logs so that the controller locks its directory as soon as it starts: with
        // a shared directory only the broker takes the lock, after a second process' controller has already
        // written to the metadata log.
        Path metadata = dataDirectory.resolve("metadata").toAbsolutePath();
        Path logs = dataDirectory.resolve("logs").toAbsolutePath();
        Files.createDirectories(metadata);
        Files.createDirectories(logs);
        KafkaConfig config = KafkaConfig.fromProps(properties(port, controllerPort, metadata, logs, partitions));
        if (!Files.exists(metadata.resolve("meta.properties"))) {
            format(metadata, logs);
        }
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        try {
            // returns once the broker has registered with the controller and been unfenced
            server.startup();
        } catch (Throwable e) {
            stop(server);
            throw e;
        }
        return new LocalKafkaBroker(server, "localhost:" + port);
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public void stop() {
        stop(server);
    }

    private static void stop(KafkaRaftServer server) {
        server.shutdown();
        server.awaitShutdown();
    }

    private static Properties properties(int port, int controllerPort, Path metadata, Path logs, int partitions) {
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", Integer.toString(NODE_ID));
        props.put("controller.quorum.voters", NODE_ID + "@localhost:" + controllerPort);
        props.put("controller.listener.names", CONTROLLER_LISTENER);
        props.put(
                "listeners",
                "PLAINTEXT://localhost:" + port + "," + CONTROLLER_LISTENER + "://localhost:" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://localhost:" + port);
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        props.put("metadata.log.dir", metadata.toString());
        props.put("log.dirs", logs.toString());
        props.put("num.partitions", Integer.toString(partitions));
        // the internal topics default to three replicas, which a single node cannot hold
        props.put("offsets.topic.replication.factor", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        return props;
    }

    /** What kafka-storage.sh format does: writes meta.properties and the bootstrap metadata checkpoint. */
    private static void format(Path metadata, Path logs) throws Exception {
        new Formatter()
                .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                .setNodeId(NODE_ID)
                .setClusterId(Uuid.randomUuid().toString())
                .setControllerListenerName(CONTROLLER_LISTENER)
                .setMetadataLogDirectory(metadata.toString())
                .addDirectory(metadata.toString())
                .addDirectory(logs.toString())
                .run();
    }
}
