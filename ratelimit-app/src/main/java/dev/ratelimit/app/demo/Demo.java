package dev.ratelimit.app.demo;

import com.google.protobuf.Any;
import dev.ratelimit.app.chain.AppGenesis;
import dev.ratelimit.app.chain.BlockResult;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.NodeConfig;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.gov.MsgSubmitProposal;
import dev.ratelimit.app.gov.Proposal;
import dev.ratelimit.app.ibc.Commitments;
import dev.ratelimit.app.ibc.IbcEvents;
import dev.ratelimit.app.relayer.Coordinator;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.app.transfer.MsgTransfer;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.keeper.RemainingCapacity;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.store.LevelDbKvStore;
import dev.ratelimit.core.store.NodeHome;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code demo [--home DIR]}: the original module README's "Example Walk-Through" with real
 * transfers between an Osmosis-like chain ({@code osmosis-1}, {@code channel-326}) and a
 * Stride-like chain ({@code stride-1}, {@code channel-5}), relayed in one process.
 *
 * <ol>
 *   <li>setup: 100 uosmo go from Osmosis to Stride, so Stride's supply of {@code ibc/D24B...}
 *       (uosmo) is 100; then a governance proposal on Stride adds a 10% send / 10% receive, 24 h
 *       rate limit on that denom and {@code channel-5} (channel value 100);
 *   <li>8 uosmo Osmosis → Stride succeed (net inflow 8%);
 *   <li>8 more are rejected by Stride's rate limiter (16% > 10%): Stride acknowledges an error and
 *       Osmosis refunds the sender;
 *   <li>12 ibc/uosmo Stride → Osmosis succeed (net outflow 4%);
 *   <li>the 8 uosmo retried now succeed (net inflow 4%);
 *   <li>24 simulated hours later BeginBlock resets the window: flows 0, channel value 104.
 * </ol>
 *
 * It prints the README's table from the chains' real state, checks every number against the
 * README, and leaves both node homes (LevelDB in {@link NodeHome}'s layout plus {@code
 * config/channels.json}) for the {@code ratelimit} CLI. Deterministic: simulated clock, no
 * randomness. Exit code 0 when every number matches, 1 otherwise or on failure, 2 for bad
 * arguments.
 */
public final class Demo {
  /** The walk-through starts at midnight UTC, so the 24 h window ends a day later. */
  static final Instant GENESIS_TIME = Instant.parse("2024-01-01T00:00:00Z");

  private static final String UOSMO = "uosmo";
  private static final Duration TRANSFER_TIMEOUT = Duration.ofMinutes(10);
  private static final int MAX_RELAY_TICKS = 20;
  private static final String USAGE =
      "usage: demo [--home DIR]\n"
          + "  Runs the rate-limit README walk-through on two in-process chains and leaves their\n"
          + "  homes in DIR (default: a new temporary directory): DIR/osmosis-1 and DIR/stride-1.\n";

  private final PrintStream out;
  private final Coordinator net;
  private final ChainApp osmosis;
  private final ChainApp stride;
  private final String alice = OsmosisStride.osmosisAccount("alice");
  private final String bob = OsmosisStride.strideAccount("bob");
  private final Path limitPath = new Path(OsmosisStride.STRIDE_UOSMO, OsmosisStride.STRIDE_CHANNEL);
  private final Map<String, byte[]> acks = new HashMap<>();
  private final List<Event> denials = new ArrayList<>();
  private final List<Row> rows = new ArrayList<>();
  private final List<String> mismatches = new ArrayList<>();

  private Demo(PrintStream out, Coordinator net) {
    this.out = out;
    this.net = net;
    this.osmosis = net.first();
    this.stride = net.second();
    net.onCommit(this::record);
  }

  public static void main(String[] args) {
    // the two homes must be named in digits 0-9 whatever the locale (LevelDbKvStore)
    LevelDbKvStore.useDigitsZeroToNineForFormatting();
    System.exit(run(args, System.out));
  }

  /**
   * Runs the demo.
   *
   * @param args {@code [--home DIR]}
   * @param out where the walk-through is printed
   * @return 0 when every number matched the README, 1 on a mismatch or failure, 2 for bad
   *     arguments
   */
  public static int run(String[] args, PrintStream out) {
    java.nio.file.Path root = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("-h") || a.equals("--help")) {
        out.print(USAGE);
        return 0;
      } else if (a.equals("--home") && i + 1 < args.length) {
        root = java.nio.file.Path.of(args[++i]);
      } else if (a.startsWith("--home=") && a.length() > "--home=".length()) {
        root = java.nio.file.Path.of(a.substring("--home=".length()));
      } else {
        out.print("demo: unexpected argument " + a + "\n" + USAGE);
        return 2;
      }
    }
    try {
      if (root == null) {
        root = Files.createTempDirectory("ratelimit-demo-");
      }
      root = root.toAbsolutePath();
      for (String chain : List.of(OsmosisStride.OSMOSIS, OsmosisStride.STRIDE)) {
        java.nio.file.Path data = NodeHome.dataDir(root.resolve(chain));
        if (Files.exists(data)) {
          out.println("demo: " + data + " already exists; pass a new or empty directory");
          return 1;
        }
      }
      AppGenesis osmosisGenesis =
          OsmosisStride.osmosisGenesis(GENESIS_TIME)
              .balance(OsmosisStride.osmosisAccount("alice"), UOSMO, 1_000_000)
              .build();
      AppGenesis strideGenesis =
          OsmosisStride.strideGenesis(GENESIS_TIME)
              .balance(OsmosisStride.strideAccount("bob"), "ustrd", 1_000_000)
              .build();
      int code;
      try (Coordinator net = OsmosisStride.start(root, osmosisGenesis, strideGenesis)) {
        code = new Demo(out, net).walkThrough();
      }
      printHomes(out, root);
      return code;
    } catch (IOException e) {
      out.println("demo: " + e.getMessage());
      return 1;
    } catch (RuntimeException e) {
      out.println("demo failed: " + e);
      return 1;
    }
  }

  private int walkThrough() {
    out.println("Rate-limit walk-through (original README), two chains in one process");
    out.println("  " + OsmosisStride.OSMOSIS + " " + OsmosisStride.OSMOSIS_CHANNEL + " <-> "
        + OsmosisStride.STRIDE_CHANNEL + " " + OsmosisStride.STRIDE + ", genesis " + GENESIS_TIME
        + ", blocks every " + Coordinator.DEFAULT_BLOCK_STEP.toSeconds() + " s");
    out.println("  Osmosis sender " + alice + ", Stride receiver " + bob);
    out.println("  uosmo on Stride = " + OsmosisStride.STRIDE_UOSMO);
    out.println();

    // Setup: the voucher's supply on Stride becomes 100, then governance adds the limit.
    Transfer setup = osmosisToStride(100);
    require(setup.status.equals("Successful"), "the initial 100 uosmo transfer failed: " + setup.detail);
    out.println("Setup: 100uosmo Osmosis -> Stride: " + setup.status + "; Stride supply of ibc/uosmo = "
        + stride.totalSupply(OsmosisStride.STRIDE_UOSMO));
    Proposal proposal = addRateLimitByGovernance();
    out.println("Setup: governance proposal " + proposal.id() + " on Stride (MsgAddRateLimit 10%/10%, 24 h, "
        + OsmosisStride.STRIDE_CHANNEL + "): " + proposal.status()
        + (proposal.failure().isEmpty() ? "" : " (" + proposal.failure() + ")"));
    require(proposal.status() == Proposal.Status.PASSED, "the proposal did not pass");
    out.println();

    addRow("1", "Rate limit created", "", flow(), 0, 0, 100);

    Transfer t2 = osmosisToStride(8);
    addRow("2", "8uosmo Osmosis -> Stride", t2.status, flow(), 8, 0, 100);

    BigInteger before = osmosis.balance(alice, UOSMO);
    Flow flowBefore = flow();
    Transfer t3 = osmosisToStride(8);
    BigInteger after = osmosis.balance(alice, UOSMO);
    Flow attempted = flowBefore.withInflow(flowBefore.inflow().add(BigInteger.valueOf(8)));
    addRow("3", "8uosmo Osmosis -> Stride", t3.status.equals("Error ack") ? "Rejected" : t3.status,
        attempted, 16, 0, 100);
    addRow("3", "State reverted after rejected Tx", "", flow(), 8, 0, 100);

    Transfer t4 = strideToOsmosis(12);
    addRow("4", "12ibc/uosmo Stride -> Osmosis", t4.status, flow(), 8, 12, 100);

    Transfer t5 = osmosisToStride(8);
    addRow("5", "8uosmo Osmosis -> Stride", t5.status, flow(), 16, 12, 100);

    Instant resetAt = remaining().windowResetsAt();
    net.advanceTime(Duration.ofHours(24));
    HourEpoch epoch = stride.query(ctx -> stride.rateLimits().getHourEpoch(ctx)).orElseThrow();
    addRow("6", "Quota Reset", "", flow(), 0, 0, 104);

    printTable();
    out.println();
    out.println("Step 3 on Stride: the rate limiter refused the packet and acknowledged");
    out.println("  " + t3.detail);
    for (Event e : denials) {
      out.println("  event " + e.type() + ": reason=" + e.attribute("reason").orElse("")
          + " action=" + e.attribute("action").orElse("") + " amount=" + e.attribute("amount").orElse(""));
      out.println("    " + e.attribute("error").orElse(""));
    }
    out.println("Step 3 on Osmosis: the error acknowledgement refunded the sender " + alice);
    out.println("  uosmo balance: " + before + " before the transfer, " + t3.senderAfterSend
        + " once sent (8 in escrow), " + after + " after the refund"
        + (before.equals(after) ? " (refunded in full)" : " (NOT refunded)"));
    check("sender balance once step 3 was sent", before.subtract(BigInteger.valueOf(8)),
        t3.senderAfterSend);
    check("sender refunded after step 3", before, after);
    out.println("Step 6: the 24 h window ended at " + resetAt + "; BeginBlock of the block at "
        + stride.lastBlockTime() + " (epoch " + epoch.epochNumber() + ") reset it, channel value "
        + flow().channelValue() + " = Stride's supply of ibc/uosmo");

    BigInteger escrow = osmosis.balance(osmosis.transfer().escrowAddress(OsmosisStride.OSMOSIS_CHANNEL), UOSMO);
    BigInteger supply = stride.totalSupply(OsmosisStride.STRIDE_UOSMO);
    out.println("Conservation: Osmosis escrow of " + OsmosisStride.OSMOSIS_CHANNEL + " holds " + escrow
        + " uosmo = Stride supply of ibc/uosmo " + supply);
    check("escrow equals voucher supply", escrow, supply);
    require(net.relayer().failures().isEmpty(), "relay failures: " + net.relayer().failures());
    out.println("Stride height " + stride.lastHeight() + ", app hash "
        + HexFormat.of().formatHex(stride.lastAppHash()));
    out.println();
    if (!mismatches.isEmpty()) {
      out.println("MISMATCH with the README's table:");
      mismatches.forEach(m -> out.println("  " + m));
      return 1;
    }
    out.println("Every number matches the README's table.");
    return 0;
  }

  // ---------------------------------------------------------------- steps

  /**
   * @param senderAfterSend the sender's balance of the sent denom once the send committed, before
   *     the acknowledgement came back
   */
  private record Transfer(String status, String detail, BigInteger senderAfterSend) {}

  private Transfer osmosisToStride(long amount) {
    return transfer(osmosis, alice, OsmosisStride.OSMOSIS_CHANNEL, UOSMO, amount, bob, stride);
  }

  private Transfer strideToOsmosis(long amount) {
    return transfer(
        stride, bob, OsmosisStride.STRIDE_CHANNEL, OsmosisStride.STRIDE_UOSMO, amount, alice, osmosis);
  }

  /** Sends, relays until idle, and reads the destination's acknowledgement. */
  private Transfer transfer(
      ChainApp from, String sender, String channel, String denom, long amount, String receiver,
      ChainApp to) {
    long timeout = Commitments.nanos(net.time().plus(TRANSFER_TIMEOUT));
    TxResult sent =
        net.deliver(from, MsgTransfer.of(sender, channel, denom, BigInteger.valueOf(amount), receiver, timeout));
    BigInteger afterSend = from.balance(sender, denom);
    if (!sent.isOk()) {
      return new Transfer("Rejected", "send failed: " + sent.log(), afterSend);
    }
    long sequence = sent.value().orElseThrow();
    String destChannel = to == stride ? OsmosisStride.STRIDE_CHANNEL : OsmosisStride.OSMOSIS_CHANNEL;
    net.relayUntilIdle(MAX_RELAY_TICKS);
    byte[] ack = acks.get(to.chainId() + "/" + destChannel + "/" + sequence);
    if (ack == null) {
      return new Transfer("Timed out", "no acknowledgement", afterSend);
    }
    String text = new String(ack, StandardCharsets.UTF_8);
    return switch (AcknowledgementCodec.classify(ack)) {
      case SUCCESS -> new Transfer("Successful", text, afterSend);
      case ERROR -> new Transfer("Error ack", text, afterSend);
      case MALFORMED -> new Transfer("Malformed ack", text, afterSend);
    };
  }

  private Proposal addRateLimitByGovernance() {
    MsgAddRateLimit add =
        MsgAddRateLimit.newBuilder()
            .setAuthority(OsmosisStride.STRIDE_AUTHORITY)
            .setDenom(OsmosisStride.STRIDE_UOSMO)
            .setChannelOrClientId(OsmosisStride.STRIDE_CHANNEL)
            .setMaxPercentSend("10")
            .setMaxPercentRecv("10")
            .setDurationHours(24)
            .build();
    TxResult r =
        net.deliver(stride, new MsgSubmitProposal(bob, List.of(Any.pack(add, ""))));
    require(r.isOk(), "proposal submission failed: " + r.log());
    long id = r.value().orElseThrow();
    return stride.query(ctx -> stride.gov().proposal(ctx, id)).orElseThrow();
  }

  private void record(ChainApp chain, BlockResult block) {
    for (Event e : block.events()) {
      if (e.type().equals(IbcEvents.WRITE_ACKNOWLEDGEMENT)) {
        acks.put(
            chain.chainId() + "/" + e.attribute("packet_dst_channel").orElseThrow() + "/"
                + e.attribute("packet_sequence").orElseThrow(),
            IbcEvents.acknowledgementOf(e).orElseThrow());
      } else if (e.type().equals("transfer_denied") && chain == stride) {
        denials.add(e);
      }
    }
  }

  private Flow flow() {
    Optional<RateLimit> rl = stride.query(ctx -> stride.rateLimits().getRateLimit(ctx, limitPath));
    return rl.orElseThrow(() -> new IllegalStateException("no rate limit on " + limitPath)).flow();
  }

  private RemainingCapacity remaining() {
    return stride.query(ctx -> stride.rateLimits().remainingCapacity(ctx, limitPath));
  }

  // ---------------------------------------------------------------- table

  private record Row(String step, String description, String status, Flow flow) {}

  private void addRow(
      String step, String description, String status, Flow flow, long inflow, long outflow,
      long channelValue) {
    rows.add(new Row(step, description, status, flow));
    String where = "step " + step + " (" + description + ")";
    check(where + " inflow", BigInteger.valueOf(inflow), flow.inflow());
    check(where + " outflow", BigInteger.valueOf(outflow), flow.outflow());
    check(where + " channel value", BigInteger.valueOf(channelValue), flow.channelValue());
  }

  private void printTable() {
    String format = "%-4s %-33s %-15s %6s %7s %-11s %-11s %13s%n";
    out.printf(Locale.ROOT, format, "Step", "Description", "Transfer Status", "Inflow", "Outflow",
        "Net Inflow", "Net Outflow", "Channel Value");
    for (Row r : rows) {
      BigInteger net = r.flow.inflow().subtract(r.flow.outflow());
      String netIn = net.signum() > 0 ? percent(net, r.flow.channelValue()) : "";
      String netOut = net.signum() < 0 ? percent(net.negate(), r.flow.channelValue()) : "";
      if (r.status.equals("Rejected")) {
        netIn = netIn + " (>10%)";
      }
      out.printf(Locale.ROOT, format, r.step, r.description, r.status, r.flow.inflow(),
          r.flow.outflow(), netIn, netOut, r.flow.channelValue());
    }
  }

  private static String percent(BigInteger amount, BigInteger channelValue) {
    BigDecimal pct =
        new BigDecimal(amount.multiply(BigInteger.valueOf(100)))
            .divide(new BigDecimal(channelValue), 2, java.math.RoundingMode.HALF_EVEN)
            .stripTrailingZeros();
    return pct.toPlainString() + "%";
  }

  private void check(String what, BigInteger expected, BigInteger actual) {
    if (!expected.equals(actual)) {
      mismatches.add(what + ": expected " + expected + ", got " + actual);
    }
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalStateException(message);
    }
  }

  private static void printHomes(PrintStream out, java.nio.file.Path root) {
    java.nio.file.Path strideHome = root.resolve(OsmosisStride.STRIDE);
    out.println("Node homes (LevelDB under data/, channel map in config/channels.json):");
    out.println("  " + OsmosisStride.STRIDE + ":  " + strideHome);
    out.println("  " + OsmosisStride.OSMOSIS + ": " + root.resolve(OsmosisStride.OSMOSIS));
    try {
      out.println("  " + OsmosisStride.STRIDE + "/config/channels.json: "
          + Files.readString(NodeConfig.channelsFile(strideHome), StandardCharsets.UTF_8)
              .replaceAll("\\s+", " ").trim());
    } catch (IOException e) {
      out.println("  (cannot read the channel map: " + e.getMessage() + ")");
    }
    out.println("Query Stride's rate limits with the CLI:");
    out.println("  bin/ratelimit list-rate-limits --home " + shellQuote(strideHome));
    out.println("  bin/ratelimit remaining-capacity " + OsmosisStride.STRIDE_CHANNEL + " --denom "
        + OsmosisStride.STRIDE_UOSMO + " --home " + shellQuote(strideHome));
  }

  private static String shellQuote(java.nio.file.Path p) {
    String s = p.toString();
    return s.matches("[A-Za-z0-9_./:+-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
  }
}
