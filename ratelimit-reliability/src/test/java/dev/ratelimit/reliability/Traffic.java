package dev.ratelimit.reliability;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import dev.ratelimit.app.chain.AppGenesis;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.gov.MsgSubmitProposal;
import dev.ratelimit.app.ibc.Commitments;
import dev.ratelimit.app.relayer.Coordinator;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.app.transfer.MsgTransfer;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import dev.ratelimit.proto.v1.MsgRemoveRateLimit;
import dev.ratelimit.proto.v1.MsgResetRateLimit;
import dev.ratelimit.proto.v1.MsgUpdateRateLimit;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Seeded random two-chain traffic on the example app: transfers both ways of native tokens and of
 * vouchers going home, amounts that sometimes exceed the limits on send or on receive, receivers
 * the destination refuses (error acknowledgements), packets that time out, governance proposals
 * that add, update, reset and remove limits while packets are in flight, and clock jumps that end
 * windows (past midnight too). Only the seed and the chains' committed state decide what is
 * queued, so the same seed gives the same blocks.
 */
final class Traffic {
  /** 22:40 UTC: 24h windows end two hours in, 1h and 2h windows sooner. */
  static final Instant GENESIS = Instant.parse("2024-03-01T22:40:00Z");
  static final long USER_BALANCE = 1_000_000;
  static final int USERS = 12;

  private final Random r;
  private final TwoChains n;
  private final List<String> osmoUsers = new ArrayList<>();
  private final List<String> strideUsers = new ArrayList<>();
  private int transfers;
  private int proposals;
  private int jumps;

  Traffic(long seed, TwoChains n) {
    this.r = new Random(seed);
    this.n = n;
    for (int i = 0; i < USERS; i++) {
      osmoUsers.add(OsmosisStride.osmosisAccount("user" + i));
      strideUsers.add(OsmosisStride.strideAccount("user" + i));
    }
  }

  /** Osmosis: users with uosmo and a genesis limit on uosmo over its channel. */
  static AppGenesis osmosisGenesis() {
    AppGenesis.Builder b = OsmosisStride.osmosisGenesis(GENESIS);
    for (int i = 0; i < USERS; i++) {
      b.balance(OsmosisStride.osmosisAccount("user" + i), TwoChains.UOSMO, USER_BALANCE);
    }
    return b.rateLimits(limit(TwoChains.UOSMO, TwoChains.OSMO_CH, 30, 30, 1)).build();
  }

  /** Stride: users with ustrd and a genesis limit on ustrd over its channel. */
  static AppGenesis strideGenesis() {
    AppGenesis.Builder b = OsmosisStride.strideGenesis(GENESIS);
    for (int i = 0; i < USERS; i++) {
      b.balance(OsmosisStride.strideAccount("user" + i), TwoChains.USTRD, USER_BALANCE);
    }
    return b.rateLimits(limit(TwoChains.USTRD, TwoChains.STRIDE_CH, 25, 40, 2)).build();
  }

  private static Genesis limit(String denom, String channel, int send, int recv, long hours) {
    BigInteger supply = BigInteger.valueOf(USER_BALANCE * USERS);
    return new Genesis(
        List.of(new RateLimit(new Path(denom, channel), new Quota(send, recv, hours),
            new Flow(BigInteger.ZERO, BigInteger.ZERO, supply))),
        List.of(), List.of(), List.of(), List.of(), Optional.empty());
  }

  static TwoChains start(java.nio.file.Path root) {
    return TwoChains.start(root, osmosisGenesis(), strideGenesis());
  }

  int transfers() {
    return transfers;
  }

  String stats() {
    return "transfers=" + transfers + " proposals=" + proposals + " clockJumps=" + jumps;
  }

  /**
   * Queues up to {@code maxTransfers} transfers (and now and then a proposal) and runs one tick,
   * or, now and then, a clock jump of 20 to 90 minutes.
   */
  Coordinator.Tick step(int maxTransfers) {
    Duration advance = r.nextInt(25) == 0
        ? Duration.ofMinutes(20 + r.nextInt(71)) : Coordinator.DEFAULT_BLOCK_STEP;
    Instant blockTime = n.net.time().plus(advance);
    int count = maxTransfers == 0 ? 0 : 1 + r.nextInt(maxTransfers);
    for (int i = 0; i < count; i++) {
      boolean fromOsmosis = r.nextBoolean();
      n.net.submit(fromOsmosis ? n.osmosis : n.stride, transfer(fromOsmosis, blockTime));
      transfers++;
    }
    if (r.nextInt(10) == 0) {
      boolean onOsmosis = r.nextBoolean();
      n.net.submit(onOsmosis ? n.osmosis : n.stride, proposal(onOsmosis));
      proposals++;
    }
    if (!advance.equals(Coordinator.DEFAULT_BLOCK_STEP)) {
      jumps++;
      return n.net.advanceTime(advance);
    }
    return n.net.tick();
  }

  private MsgTransfer transfer(boolean fromOsmosis, Instant blockTime) {
    ChainApp chain = fromOsmosis ? n.osmosis : n.stride;
    List<String> senders = fromOsmosis ? osmoUsers : strideUsers;
    List<String> receivers = fromOsmosis ? strideUsers : osmoUsers;
    String sender = senders.get(r.nextInt(senders.size()));
    String channel = fromOsmosis ? TwoChains.OSMO_CH : TwoChains.STRIDE_CH;
    String native_ = fromOsmosis ? TwoChains.UOSMO : TwoChains.USTRD;
    String voucher = fromOsmosis ? TwoChains.OSMOSIS_USTRD : TwoChains.STRIDE_UOSMO;
    String denom = native_;
    long balance = chain.balance(sender, native_).longValueExact();
    if (r.nextInt(3) == 0) {
      long vouchers = chain.balance(sender, voucher).longValueExact();
      if (vouchers > 0) {
        denom = voucher;
        balance = vouchers;
      }
    }
    long amount;
    int kind = r.nextInt(20);
    if (kind == 0) {
      amount = 1 + r.nextInt(1_000_000); // large: may exceed a limit or the balance
    } else if (kind == 1 && balance > 0) {
      amount = balance; // everything
    } else {
      amount = 1 + r.nextInt((int) Math.max(1, Math.min(balance / 10, 50_000)));
    }
    String receiver = receivers.get(r.nextInt(receivers.size()));
    int refuse = r.nextInt(25);
    if (refuse == 0) {
      receiver = "not-an-address"; // the destination's transfer app acks an error
    } else if (refuse == 1) {
      receiver = senders.get(0); // an address of the wrong chain: also refused
    }
    // a timeout at the block's own time: received nowhere, timed out on the source
    long timeout = r.nextInt(15) == 0
        ? Commitments.nanos(blockTime)
        : Commitments.nanos(blockTime.plus(Duration.ofMinutes(10)));
    return new MsgTransfer(sender, channel, denom, BigInteger.valueOf(amount), receiver,
        Height.ZERO, timeout, r.nextInt(10) == 0 ? "memo " + r.nextInt(1000) : "");
  }

  private MsgSubmitProposal proposal(boolean onOsmosis) {
    ChainApp chain = onOsmosis ? n.osmosis : n.stride;
    String authority = chain.gov().authority();
    String channel = onOsmosis ? TwoChains.OSMO_CH : TwoChains.STRIDE_CH;
    List<String> denoms = onOsmosis
        ? List.of(TwoChains.UOSMO, TwoChains.OSMOSIS_USTRD)
        : List.of(TwoChains.USTRD, TwoChains.STRIDE_UOSMO);
    List<Any> msgs = new ArrayList<>();
    int count = 1 + (r.nextInt(4) == 0 ? 1 : 0);
    for (int i = 0; i < count; i++) {
      String denom = denoms.get(r.nextInt(denoms.size()));
      String send = Integer.toString(5 + r.nextInt(60));
      String recv = Integer.toString(5 + r.nextInt(60));
      long hours = 1 + r.nextInt(3);
      Message m = switch (r.nextInt(6)) {
        case 0, 1 -> MsgAddRateLimit.newBuilder().setAuthority(authority).setDenom(denom)
            .setChannelOrClientId(channel).setMaxPercentSend(send).setMaxPercentRecv(recv)
            .setDurationHours(hours).build();
        case 2, 3 -> MsgUpdateRateLimit.newBuilder().setAuthority(authority).setDenom(denom)
            .setChannelOrClientId(channel).setMaxPercentSend(send).setMaxPercentRecv(recv)
            .setDurationHours(hours).build();
        case 4 -> MsgResetRateLimit.newBuilder().setAuthority(authority).setDenom(denom)
            .setChannelOrClientId(channel).build();
        default -> MsgRemoveRateLimit.newBuilder().setAuthority(authority).setDenom(denom)
            .setChannelOrClientId(channel).build();
      };
      msgs.add(Any.pack(m, ""));
    }
    List<String> proposers = onOsmosis ? osmoUsers : strideUsers;
    return new MsgSubmitProposal(proposers.get(r.nextInt(proposers.size())), msgs);
  }
}
