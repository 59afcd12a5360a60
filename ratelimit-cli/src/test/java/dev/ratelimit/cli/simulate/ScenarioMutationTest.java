package dev.ratelimit.cli.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Outside vectors are written by others, so the runner meets forms no test here wrote: every
 * scenario file of the suite, mutated at random (a key or element removed, or its value replaced
 * by null, a number, a string, an empty object or list), is either malformed with a one-line
 * reason or runs; it never escapes as another exception, and no step fails as "cannot run" (the
 * runner's own machinery breaking, which would cost a correct module its vector).
 */
class ScenarioMutationTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final int MUTATIONS_PER_FILE = 60;

  @Test
  void mutatedScenarioFiles_areMalformedOrRun_neverBreakTheRunner()
      throws IOException, URISyntaxException {
    List<Path> files = new ArrayList<>();
    for (String dir : List.of("/scenarios/conformance", "/scenarios/own")) {
      Path d = Path.of(getClass().getResource(dir).toURI());
      try (Stream<Path> s = Files.list(d)) {
        s.filter(p -> p.toString().endsWith(".json")).sorted().forEach(files::add);
      }
    }
    Random random = new Random(22);
    int malformed = 0;
    int ran = 0;
    for (Path file : files) {
      JsonNode original = JSON.readTree(file.toFile());
      for (int m = 0; m < MUTATIONS_PER_FILE; m++) {
        JsonNode mutant = original.deepCopy();
        mutate(mutant, random);
        String name = file.getFileName() + "#" + m;
        byte[] bytes = JSON.writeValueAsBytes(mutant);
        ScenarioParser.Parsed parsed;
        try {
          parsed = ScenarioParser.parse(name, bytes);
        } catch (RuntimeException e) {
          throw new AssertionError(name + ": the parser threw " + e + " on "
              + new String(bytes, StandardCharsets.UTF_8), e);
        }
        malformed += parsed.malformed().size();
        for (MalformedScenarioException e : parsed.malformed()) {
          assertEquals(-1, e.getMessage().indexOf('\n'), "one line: " + e.getMessage());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new ScenarioRunner(new PrintStream(out, true, StandardCharsets.UTF_8), false,
            SimulationStore.memory()).run(parsed.scenarios());
        ran += parsed.scenarios().size();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
          if (line.contains(": cannot run")) {
            fail(name + ": " + line + " on " + new String(bytes, StandardCharsets.UTF_8));
          }
        }
      }
    }
    // both outcomes are reached, so the mutations exercise parser and runner alike
    if (malformed == 0 || ran == 0) {
      fail("malformed " + malformed + ", ran " + ran);
    }
  }

  /** One random change at a random node of the tree. */
  private static void mutate(JsonNode root, Random random) {
    List<JsonNode> containers = new ArrayList<>();
    collect(root, containers);
    JsonNode parent = containers.get(random.nextInt(containers.size()));
    JsonNode replacement = switch (random.nextInt(7)) {
      case 0 -> null; // remove
      case 1 -> NODES.nullNode();
      case 2 -> NODES.numberNode(random.nextBoolean() ? -1 : 0);
      case 3 -> NODES.numberNode(new java.math.BigDecimal("1e400"));
      case 4 -> NODES.textNode(random.nextBoolean() ? "" : "x");
      case 5 -> NODES.objectNode();
      default -> NODES.arrayNode();
    };
    if (parent instanceof ObjectNode o && o.size() > 0) {
      List<String> keys = new ArrayList<>();
      o.fieldNames().forEachRemaining(keys::add);
      String key = keys.get(random.nextInt(keys.size()));
      if (replacement == null) {
        o.remove(key);
      } else {
        o.set(key, replacement);
      }
    } else if (parent instanceof ArrayNode a && a.size() > 0) {
      int i = random.nextInt(a.size());
      if (replacement == null) {
        a.remove(i);
      } else {
        a.set(i, replacement);
      }
    }
  }

  private static void collect(JsonNode node, List<JsonNode> out) {
    if (node.isContainerNode()) {
      out.add(node);
      node.forEach(child -> collect(child, out));
    }
  }
}
