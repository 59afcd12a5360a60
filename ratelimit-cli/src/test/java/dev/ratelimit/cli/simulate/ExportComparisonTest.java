package dev.ratelimit.cli.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ratelimit.proto.v1.GenesisState;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExportComparisonTest {
  private static GenesisState blacklist(String... denoms) {
    return GenesisState.newBuilder().addAllBlacklistedDenoms(List.of(denoms)).build();
  }

  @Test
  void listsThatShareEntries_nameTheEntriesMissingAndUnexpected() {
    assertEquals(
        List.of("expected export blacklisted_denoms [a, b, c] got [a, b, d]"
            + " (missing [c], unexpected [d])"),
        ExportComparison.compare(blacklist("c", "b", "a"), blacklist("a", "d", "b")));
    assertEquals(
        List.of("expected export blacklisted_denoms [a, b] got [a] (missing [b])"),
        ExportComparison.compare(blacklist("a", "b"), blacklist("a")));
    assertEquals(
        List.of("expected export blacklisted_denoms [a] got [a, z] (unexpected [z])"),
        ExportComparison.compare(blacklist("a"), blacklist("z", "a")));
  }

  @Test
  void listsWithNothingInCommon_showJustBothSets() {
    assertEquals(
        List.of("expected export blacklisted_denoms [uosmo] got [uatom]"),
        ExportComparison.compare(blacklist("uosmo"), blacklist("uatom")));
    assertEquals(
        List.of("expected export blacklisted_denoms [] got [uatom]"),
        ExportComparison.compare(blacklist(), blacklist("uatom")));
  }

  @Test
  void equalSetsInAnyOrder_noLine() {
    assertEquals(List.of(), ExportComparison.compare(blacklist("b", "a"), blacklist("a", "b")));
  }
}
