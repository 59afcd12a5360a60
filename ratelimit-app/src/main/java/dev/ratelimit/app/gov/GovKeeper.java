package dev.ratelimit.app.gov;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.ratelimit.app.bank.Addresses;
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.state.Keys;
import dev.ratelimit.app.state.ValueReader;
import dev.ratelimit.app.state.ValueWriter;
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.store.KvEntry;
import dev.ratelimit.core.store.KvScan;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.StorageException;
import dev.ratelimit.gov.MsgRouter;
import dev.ratelimit.gov.ProposalHandler;
import dev.ratelimit.gov.inject.RateLimitGovModule;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.inject.Inject;
import javax.inject.Named;
import javax.inject.Singleton;

/**
 * Proposals: submission, the voting period (blocks), and execution at EndBlock through the
 * rate-limit module's {@link ProposalHandler}.
 *
 * <p><b>At submission</b> each message, in order, gets the checks that read no state ({@link
 * MsgRouter#validate}), as the Cosmos SDK's {@code x/gov} {@code SubmitProposal} runs {@code
 * ValidateBasic}, the signer check and the route check (v0.50, {@code x/gov/keeper/proposal.go}).
 * The first failure refuses the transaction, in the {@code gov} codespace; nothing is stored and no
 * proposal id is used:
 *
 * <ul>
 *   <li>a type URL the module does not route: {@code ErrUnroutableProposalMsg} (10);
 *   <li>bytes that do not decode, a malformed signer or an invalid field: {@code
 *       ErrInvalidProposalMsg} (12);
 *   <li>a signer other than the gov account: {@code ErrInvalidSigner} (13).
 * </ul>
 *
 * <b>At execution</b> every check runs again, with the stateful ones (a limit exists or not, the
 * denom's supply, the channel): the state may have changed since submission. A failing proposal
 * applies nothing and is recorded as {@link Proposal.Status#FAILED} with the first failure.
 *
 * <p>Store (under {@code s/gov/}): 1 proposal by id, 2 queue {@code (voting end height, id)}, 3
 * voting period, 4 next proposal id.
 */
@Singleton
public final class GovKeeper {
  /** Every key of governance starts with this. */
  public static final byte[] PREFIX = "s/gov/".getBytes(StandardCharsets.US_ASCII);

  private static final int PROPOSAL = 1;
  private static final int QUEUE = 2;
  private static final int VOTING_PERIOD = 3;
  private static final int NEXT_ID = 4;

  private final ProposalHandler handler;
  private final MsgRouter router;
  private final String authority;
  private final String accountPrefix;

  @Inject
  public GovKeeper(
      ProposalHandler handler,
      MsgRouter router,
      @Named(RateLimitGovModule.AUTHORITY) String authority,
      ChainInfo chain) {
    this.handler = Objects.requireNonNull(handler, "handler");
    this.router = Objects.requireNonNull(router, "router");
    this.authority = Objects.requireNonNull(authority, "authority");
    this.accountPrefix = chain.accountPrefix();
  }

  /** The address governance messages must be signed by (the gov module account). */
  public String authority() {
    return authority;
  }

  /**
   * Stores the voting period.
   *
   * @throws IllegalArgumentException if it is negative
   */
  public void initGenesis(BlockContext ctx, long votingPeriodBlocks) {
    if (votingPeriodBlocks < 0) {
      throw new IllegalArgumentException(
          "voting period must not be negative, got " + votingPeriodBlocks);
    }
    ctx.store().put(key(VOTING_PERIOD).build(), new ValueWriter().u64(votingPeriodBlocks).build());
  }

  /** Blocks between submission and execution: 0 executes at the EndBlock of the same block. */
  public long votingPeriodBlocks(BlockContext ctx) {
    return readU64(ctx.store(), key(VOTING_PERIOD).build(), 0);
  }

  /**
   * Checks a proposal's messages without executing them, then stores it; it executes at the
   * EndBlock of height + voting period.
   *
   * @return the proposal id (from 1)
   * @throws TxException {@code invalid_address} for a bad proposer, {@code invalid_request} for no
   *     message; for the first message that fails a stateless check, gov's {@code
   *     ErrUnroutableProposalMsg}, {@code ErrInvalidProposalMsg} or {@code ErrInvalidSigner} (see
   *     the class comment). Nothing is written then.
   */
  public long submitProposal(BlockContext ctx, MsgSubmitProposal msg) {
    Addresses.validate(accountPrefix, msg.proposer());
    List<Any> msgs = msg.messages();
    if (msgs.isEmpty()) {
      throw TxException.invalidRequest("a proposal needs at least one message");
    }
    for (int i = 0; i < msgs.size(); i++) {
      requireSubmittable(msgs, i);
    }
    KvStore s = ctx.store();
    long id = readU64(s, key(NEXT_ID).build(), 1);
    s.put(key(NEXT_ID).build(), new ValueWriter().u64(id + 1).build());
    long end = ctx.height() + votingPeriodBlocks(ctx);
    Proposal p =
        new Proposal(
            id, msg.proposer(), msg.messages(), ctx.height(), end,
            Proposal.Status.VOTING_PERIOD, "");
    put(s, p);
    s.put(key(QUEUE).u64(end).u64(id).build(), new byte[0]);
    ctx.emit(Event.of("submit_proposal", "proposal_id", Long.toString(id),
        "voting_period_end_height", Long.toString(end)));
    return id;
  }

  /**
   * Refuses message {@code i} as {@code x/gov} would, by the module's own stateless checks: the
   * module's error names what is wrong, the gov code says which of gov's checks it stands for.
   */
  private void requireSubmittable(List<Any> msgs, int i) {
    Any m = msgs.get(i);
    try {
      router.validate(m);
    } catch (RateLimitException e) {
      String which = "proposal message " + (i + 1) + " of " + msgs.size();
      if (!MsgRouter.supportedTypeUrls().contains(m.getTypeUrl())) {
        // The module's text names the type URL, quoted and cut. (On a Cosmos chain a type URL no
        // module registers fails earlier, when the transaction is decoded.)
        throw TxException.unroutableProposalMsg(which + " cannot be routed: " + e.getMessage());
      }
      which += " (" + m.getTypeUrl() + ")";
      if (e.code() == ErrorCode.UNAUTHORIZED) {
        throw TxException.invalidSigner(
            which + " is not signed by the gov account: " + e.getMessage());
      }
      throw TxException.invalidProposalMsg(which + " is invalid: " + e.getMessage());
    }
  }

  /** A proposal by id. */
  public Optional<Proposal> proposal(BlockContext ctx, long id) {
    return ctx.store().get(key(PROPOSAL).u64(id).build()).map(GovKeeper::decode);
  }

  /**
   * Executes every proposal whose voting period ends at or before this block, in (end height, id)
   * order, each all-or-nothing.
   */
  public void endBlock(BlockContext ctx) {
    KvStore s = ctx.store();
    byte[] queuePrefix = key(QUEUE).build();
    List<long[]> due = new ArrayList<>();
    try (KvScan scan = s.scanPrefix(queuePrefix)) {
      while (scan.hasNext()) {
        KvEntry e = scan.next();
        Keys.Reader r = Keys.reader(e.key(), queuePrefix.length);
        long end = r.u64();
        if (Long.compareUnsigned(end, ctx.height()) > 0) {
          break;
        }
        due.add(new long[] {end, r.u64()});
      }
    }
    for (long[] entry : due) {
      s.delete(key(QUEUE).u64(entry[0]).u64(entry[1]).build());
      Proposal p = proposal(ctx, entry[1]).orElseThrow(
          () -> new StorageException("queued proposal " + entry[1] + " is missing"));
      Proposal done;
      try {
        handler.execute(ctx, p.messages());
        done = withStatus(p, Proposal.Status.PASSED, "");
        ctx.emit(Event.of("proposal_passed", "proposal_id", Long.toString(p.id())));
      } catch (StorageException e) {
        throw e;
      } catch (RuntimeException e) {
        String reason = String.valueOf(e.getMessage());
        done = withStatus(p, Proposal.Status.FAILED, reason);
        ctx.emit(Event.of("proposal_failed", "proposal_id", Long.toString(p.id()), "error", reason));
      }
      put(s, done);
    }
  }

  private static Proposal withStatus(Proposal p, Proposal.Status status, String failure) {
    return new Proposal(
        p.id(), p.proposer(), p.messages(), p.submitHeight(), p.votingEndHeight(), status, failure);
  }

  private static Keys key(int table) {
    return Keys.of(PREFIX, table);
  }

  private static long readU64(KvStore s, byte[] key, long absent) {
    return s.get(key).map(v -> new ValueReader(v).u64()).orElse(absent);
  }

  private static void put(KvStore s, Proposal p) {
    ValueWriter w =
        new ValueWriter()
            .u64(p.id())
            .string(p.proposer())
            .u64(p.submitHeight())
            .u64(p.votingEndHeight())
            .string(p.status().name())
            .string(p.failure())
            .u64(p.messages().size());
    for (Any m : p.messages()) {
      w.bytes(m.toByteArray());
    }
    s.put(key(PROPOSAL).u64(p.id()).build(), w.build());
  }

  private static Proposal decode(byte[] raw) {
    ValueReader r = new ValueReader(raw);
    long id = r.u64();
    String proposer = r.string();
    long submit = r.u64();
    long end = r.u64();
    Proposal.Status status = Proposal.Status.valueOf(r.string());
    String failure = r.string();
    long n = r.u64();
    List<Any> messages = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      try {
        messages.add(Any.parseFrom(r.bytes()));
      } catch (InvalidProtocolBufferException e) {
        throw new StorageException("corrupt proposal " + id, e);
      }
    }
    r.end();
    return new Proposal(id, proposer, messages, submit, end, status, failure);
  }
}
