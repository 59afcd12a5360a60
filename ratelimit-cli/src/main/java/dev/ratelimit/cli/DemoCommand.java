package dev.ratelimit.cli;

import dev.ratelimit.cli.query.TextTable;
import dev.ratelimit.cli.simulate.Scenario;
import dev.ratelimit.cli.simulate.ScenarioParser;
import dev.ratelimit.cli.simulate.ScenarioRunner;
import dev.ratelimit.cli.simulate.SimulationStore;
import dev.ratelimit.cli.simulate.StateView;
import dev.ratelimit.cli.simulate.Step;
import dev.ratelimit.cli.simulate.StepListener;
import dev.ratelimit.cli.simulate.StepOutcome;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ratelimit demo}: the original module README's walk-through (a 24h, 10% limit on
 * ibc/uosmo over channel-5), run through the real keeper, middleware and governance handler by the
 * scenario runner on an embedded copy of {@code walkthrough.json}, printed as the README's table.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Run the module README's walk-through through the real module and print its table.",
      "",
      "The walk-through of Stride's x/ratelimit README ('Example Walk-Through'): a 24h, 10%"
          + " limit on ibc/uosmo over channel-5. The table has the step, description, transfer"
          + " status, inflow, outflow, net flow as a % of the channel value and the channel"
          + " value. With --home the chain's state is left in <home>/data (a new or empty home)"
          + " for the queries to read.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  ratelimit demo",
      "  ratelimit demo --home /tmp/rl-home && ratelimit list-rate-limits --home /tmp/rl-home"
    })
final class DemoCommand implements Callable<Integer> {
  static final String RESOURCE = "demo/walkthrough.json";

  private final Io io;

  @Option(names = "--home", paramLabel = "DIR", description = "Leave the state in this node home.")
  Path home;

  DemoCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    List<Scenario> scenarios = ScenarioParser.parse("walkthrough.json (embedded)", embedded());
    SimulationStore.StoreProvider stores = SimulationStore.memory();
    if (home != null) {
      SimulateCommand.requireFreshHome(home);
      stores = SimulationStore.leveldb(home);
    }
    Table table = new Table();
    ByteArrayOutputStream failures = new ByteArrayOutputStream();
    ScenarioRunner.ScenarioResult result;
    try (PrintStream failureOut = new PrintStream(failures, true, StandardCharsets.UTF_8)) {
      result = new ScenarioRunner(failureOut, false, stores, table).runScenario(scenarios.get(0));
    }
    Scenario s = scenarios.get(0);
    io.out().println("README walk-through on " + s.chainId() + ": " + table.title);
    io.out().println();
    io.out().print(table.rows.render());
    io.out().println();
    if (!result.passed()) {
      io.err().print(failures.toString(StandardCharsets.UTF_8));
      io.err().println("ratelimit: the walk-through did not go as the README says ("
          + result.failures().size() + " failed expectations)");
      return ExitCode.FAILED;
    }
    long checks = s.steps().stream().filter(Step::hasExpectations).count();
    io.out().println("All " + checks + " checked steps behaved as the README says.");
    if (home != null) {
      io.out().println("State left in " + home + "; try: ratelimit list-rate-limits --home " + home);
    }
    return ExitCode.OK;
  }

  static byte[] embedded() {
    try (InputStream in = DemoCommand.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the embedded walk-through " + RESOURCE + " is missing");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the embedded walk-through", e);
    }
  }

  /** Builds the README's table from the steps as they run. */
  static final class Table implements StepListener {
    final TextTable rows =
        new TextTable(
            "STEP", "DESCRIPTION", "TRANSFER STATUS", "INFLOW", "OUTFLOW", "NET", "CHANNEL VALUE");
    String title = "";
    private int number;
    private String denom;
    private String channel;
    private Optional<RateLimit> last = Optional.empty();

    @Override
    public void afterStep(Scenario scenario, Step step, StepOutcome outcome, StateView state) {
      Step.Action action = step.action();
      if (action instanceof Step.Msg m && outcome.ok()
          && m.msg().getTypeUrl().endsWith("MsgAddRateLimit")) {
        MsgAddRateLimit add;
        try {
          add = m.msg().unpack(MsgAddRateLimit.class);
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
          return;
        }
        denom = add.getDenom();
        channel = add.getChannelOrClientId();
        title = add.getDurationHours() + "h rate limit, " + add.getMaxPercentSend() + "% send / "
            + add.getMaxPercentRecv() + "% recv, on " + channel;
        row(++number, "Rate limit created", "", current(state));
      } else if (denom != null && action instanceof Step.Recv r) {
        transfer(r.packet(), outcome, state, true, scenario);
      } else if (denom != null && action instanceof Step.Send s) {
        transfer(s.packet(), outcome, state, false, scenario);
      } else if (denom != null && action instanceof Step.BeginBlock) {
        Optional<RateLimit> now = state.rateLimit(denom, channel);
        if (now.isPresent() && last.isPresent() && isFresh(now.get()) && !isFresh(last.get())) {
          row(++number, "Quota reset", "", now);
        }
        last = now;
      }
    }

    private void transfer(
        Step.PacketSpec packet, StepOutcome outcome, StateView state, boolean recv,
        Scenario scenario) {
      FungibleTokenPacketData data;
      try {
        data = PacketDataCodec.decode(packet.data());
      } catch (RuntimeException e) {
        return;
      }
      String here = state.chainId();
      String there = state.counterpartyChainId(recv ? packet.destinationChannel()
          : packet.sourceChannel()).orElse("counterparty");
      String shownDenom = data.denom().contains("/")
          ? "ibc/" + data.denom().substring(data.denom().lastIndexOf('/') + 1)
          : data.denom();
      String description = data.amount() + shownDenom + " " + (recv ? there + " → " + here
          : here + " → " + there);
      Optional<RateLimit> now = current(state);
      boolean rejected = recv
          ? outcome.error().isPresent() || outcome.recvAck().flatMap(a -> a).map(a -> !a.isSuccess())
              .orElse(false)
          : !outcome.ok();
      if (rejected && now.isPresent()) {
        RateLimit rl = now.get();
        BigInteger in = rl.flow().inflow().add(recv ? data.amount() : BigInteger.ZERO);
        BigInteger outFlow = rl.flow().outflow().add(recv ? BigInteger.ZERO : data.amount());
        int pct = recv ? rl.quota().maxPercentRecv() : rl.quota().maxPercentSend();
        rows.row(Integer.toString(++number), description, "Rejected", in.toString(),
            outFlow.toString(), net(in, outFlow, rl.flow().channelValue()) + " (>" + pct + "%)",
            rl.flow().channelValue().toString());
        row(number, "State reverted after rejected tx", "", now);
      } else {
        row(++number, description, "Successful", now);
      }
    }

    private Optional<RateLimit> current(StateView state) {
      Optional<RateLimit> now = state.rateLimit(denom, channel);
      last = now;
      return now;
    }

    private static boolean isFresh(RateLimit rl) {
      return rl.flow().inflow().signum() == 0 && rl.flow().outflow().signum() == 0;
    }

    private void row(int n, String description, String status, Optional<RateLimit> rl) {
      if (rl.isEmpty()) {
        rows.row(Integer.toString(n), description, status, "", "", "", "");
        return;
      }
      BigInteger in = rl.get().flow().inflow();
      BigInteger outFlow = rl.get().flow().outflow();
      BigInteger cv = rl.get().flow().channelValue();
      rows.row(Integer.toString(n), description, status, in.toString(), outFlow.toString(),
          in.signum() == 0 && outFlow.signum() == 0 ? "" : net(in, outFlow, cv), cv.toString());
    }

    /** Net flow as a % of the channel value: {@code 8% in}, {@code 4% out}. */
    static String net(BigInteger in, BigInteger out, BigInteger channelValue) {
      BigInteger net = in.subtract(out);
      if (channelValue.signum() == 0) {
        return net.signum() == 0 ? "0" : net.abs() + (net.signum() > 0 ? " in" : " out");
      }
      BigDecimal pct = new BigDecimal(net.abs()).multiply(BigDecimal.valueOf(100))
          .divide(new BigDecimal(channelValue), 2, RoundingMode.HALF_UP).stripTrailingZeros();
      String p = pct.scale() < 0 ? pct.setScale(0).toPlainString() : pct.toPlainString();
      return p + "%" + (net.signum() > 0 ? " in" : net.signum() < 0 ? " out" : "");
    }
  }
}
