package dev.ratelimit.app.chain;

import dev.ratelimit.app.bank.BankKeeper;
import dev.ratelimit.app.bank.MsgSend;
import dev.ratelimit.app.gov.GovKeeper;
import dev.ratelimit.app.gov.MsgSubmitProposal;
import dev.ratelimit.app.ibc.IbcCore;
import dev.ratelimit.app.ibc.MsgAcknowledgement;
import dev.ratelimit.app.ibc.MsgRecvPacket;
import dev.ratelimit.app.ibc.MsgTimeout;
import dev.ratelimit.app.ibc.MsgUpdateClient;
import dev.ratelimit.app.ibc.v2.IbcCoreV2;
import dev.ratelimit.app.ibc.v2.MsgAcknowledgementV2;
import dev.ratelimit.app.ibc.v2.MsgRecvPacketV2;
import dev.ratelimit.app.ibc.v2.MsgSendPacketV2;
import dev.ratelimit.app.ibc.v2.MsgTimeoutV2;
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.transfer.MsgTransfer;
import dev.ratelimit.app.transfer.MsgTransferV2;
import dev.ratelimit.app.transfer.TransferApp;
import dev.ratelimit.app.transfer.TransferV2;
import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.host.EventSink;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.query.RateLimitQueryServer;
import dev.ratelimit.core.store.KvBranch;
import dev.ratelimit.core.store.KvScan;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.LevelDbKvStore;
import dev.ratelimit.core.store.NodeHome;
import dev.ratelimit.core.store.StorageException;
import dev.ratelimit.core.store.StoreDigest;
import dev.ratelimit.core.store.WriteBatch;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.inject.Inject;
import javax.inject.Singleton;

/**
 * The example chain: bank, IBC core, ICS-20 transfer wrapped by the rate-limit middleware, and
 * governance, over one LevelDB in a node home ({@link NodeHome} layout, which the {@code
 * ratelimit} CLI reads).
 *
 * <p><b>Blocks.</b> {@link #beginBlock} opens a branch over the database for the whole block and
 * runs the rate limiter's BeginBlock (window resets). Each {@link #deliverTx} runs in a branch of
 * the block: a failing transaction writes nothing (only its durable events remain). {@link
 * #endBlock} executes proposals whose voting period ended, then any {@link EndBlocker}. {@link
 * #commit} records the block's height and time ({@link NodeHome#writeLastBlock}) in the branch and
 * writes the whole block to LevelDB as ONE synced write batch: a crash never leaves half a block.
 *
 * <p><b>App hash.</b> A hash chain over the committed write batches ({@link AppHash}): SHA-256 of
 * the previous hash and the batch's puts and deletes in key order, stored with the batch. It
 * covers every module's writes and the last block record, costs what the block wrote (not the
 * state), and reopening a home gives the same hash. A home written before the chain (no stored
 * hash) resumes from {@link StoreDigest#sha256} of its database, the hash it had then.
 *
 * <p><b>Resuming.</b> Opening a home that holds a chain resumes after its last committed block;
 * {@link #initChain} applies only to an empty home. The app owns the database and closes it in
 * {@link #close()}. Not thread-safe: blocks run on one thread.
 */
@Singleton
public final class ChainApp implements AutoCloseable {
  /** The key of the chain id a home belongs to. */
  static final byte[] CHAIN_ID_KEY = "m/chain_id".getBytes(StandardCharsets.US_ASCII);
  /** The height InitChain runs at (the rate limiter's epoch starts there). */
  private static final long INITIAL_HEIGHT = 1;

  private final ChainInfo chain;
  private final LevelDbKvStore db;
  private final BankKeeper bank;
  private final IbcCore ibc;
  private final IbcCoreV2 ibcV2;
  private final TransferApp transfer;
  private final TransferV2 transferV2;
  private final GovKeeper gov;
  private final RateLimitKeeper rateLimits;
  private final RateLimitQueryServer rateLimitQueries;
  private final List<EndBlocker> endBlockers;

  private NodeHome.LastBlock lastBlock; // null before InitChain
  private byte[] lastAppHash;
  private BlockInProgress block;
  private boolean closed;

  @Inject
  public ChainApp(
      ChainInfo chain,
      LevelDbKvStore db,
      BankKeeper bank,
      IbcCore ibc,
      IbcCoreV2 ibcV2,
      TransferApp transfer,
      TransferV2 transferV2,
      GovKeeper gov,
      RateLimitKeeper rateLimits,
      RateLimitQueryServer rateLimitQueries,
      Set<EndBlocker> endBlockers) {
    this.chain = Objects.requireNonNull(chain, "chain");
    this.db = Objects.requireNonNull(db, "db");
    this.bank = bank;
    this.ibc = ibc;
    this.ibcV2 = ibcV2;
    this.transfer = transfer;
    this.transferV2 = transferV2;
    this.gov = gov;
    this.rateLimits = rateLimits;
    this.rateLimitQueries = rateLimitQueries;
    this.endBlockers = List.copyOf(endBlockers);
    this.lastBlock = NodeHome.readLastBlock(db).orElse(null);
    if (lastBlock != null) {
      String stored =
          db.get(CHAIN_ID_KEY)
              .map(b -> new String(b, StandardCharsets.UTF_8))
              .orElseThrow(() -> new StorageException("home has blocks but no chain id"));
      if (!stored.equals(chain.chainId())) {
        db.close();
        throw new IllegalStateException(
            "home " + db.directory() + " holds chain " + stored + ", not " + chain.chainId());
      }
      lastAppHash = storedAppHash(db);
      try {
        query(ctx -> { // a home of an older store layout must not resume as if it had no limits
          rateLimits.requireCurrentLayout(ctx);
          return null;
        });
      } catch (StorageException e) {
        db.close();
        throw e;
      }
    }
  }

  /** The stored app hash, or for a home written before the hash chain, its database's digest. */
  private static byte[] storedAppHash(LevelDbKvStore db) {
    Optional<byte[]> stored = db.get(AppHash.KEY);
    if (stored.isEmpty()) {
      return StoreDigest.sha256(db);
    }
    if (stored.get().length != AppHash.BEFORE_GENESIS.length) {
      db.close();
      throw new StorageException(
          "stored app hash has " + stored.get().length + " bytes, not 32: the home is damaged");
    }
    return stored.get();
  }

  // ---------------------------------------------------------------- identity and queries

  public String chainId() {
    return chain.chainId();
  }

  public ChainInfo info() {
    return chain;
  }

  /** Whether the home holds a chain (InitChain ran). */
  public boolean isInitialized() {
    return lastBlock != null;
  }

  /** The last committed height (0 after InitChain). */
  public long lastHeight() {
    return requireInitialized().height();
  }

  /** The header time of the last committed block (the genesis time after InitChain). */
  public Instant lastBlockTime() {
    return requireInitialized().time();
  }

  /** The app hash after the last commit. */
  public byte[] lastAppHash() {
    requireInitialized();
    return lastAppHash.clone();
  }

  /**
   * Runs a read-only query against the committed state (a context at the last committed height
   * and time; writing through it throws {@link IllegalStateException}).
   */
  public <T> T query(Function<BlockContext, T> query) {
    NodeHome.LastBlock last = requireInitialized();
    checkOpen();
    return query.apply(
        BlockContext.of(last.height(), last.time(), DatabaseView.readOnly(db), EventSink.discarding()));
  }

  /** A committed balance. */
  public BigInteger balance(String address, String denom) {
    return query(ctx -> bank.balance(ctx, address, denom));
  }

  /** A committed total supply. */
  public BigInteger totalSupply(String denom) {
    return query(ctx -> bank.totalSupply(ctx, denom));
  }

  public BankKeeper bank() {
    return bank;
  }

  public IbcCore ibc() {
    return ibc;
  }

  /** IBC core's IBC v2 part: client counterparties, v2 sequences, commitments, receipts, acks. */
  public IbcCoreV2 ibcV2() {
    return ibcV2;
  }

  public TransferApp transfer() {
    return transfer;
  }

  /** ICS-20 transfer's IBC v2 module. */
  public TransferV2 transferV2() {
    return transferV2;
  }

  public GovKeeper gov() {
    return gov;
  }

  /** The rate-limit keeper (queries: rate limits, remaining capacity, pending packets). */
  public RateLimitKeeper rateLimits() {
    return rateLimits;
  }

  /**
   * An ABCI query of the rate-limit module against the committed state, as a node serves {@code
   * abci_query}: the gRPC method path ({@code /ratelimit.v1.Query/AllRateLimits}, ...) and the
   * request's protobuf bytes in, the response's bytes out.
   *
   * @throws dev.ratelimit.core.RateLimitException as {@link RateLimitQueryServer#query} does
   */
  public byte[] abciQuery(String path, byte[] request) {
    return query(ctx -> rateLimitQueries.query(ctx, path, request));
  }

  // ---------------------------------------------------------------- genesis

  /**
   * Applies the genesis to an empty home and commits it (height 0, the genesis time) as one write
   * batch: balances are minted, clients, channels and IBC v2 counterparties stored, the rate-limit module's genesis loaded
   * (its hour epoch starts at the genesis time, height 1) and the voting period set.
   *
   * @return the app hash of the genesis state
   * @throws IllegalStateException if the home already holds a chain
   */
  public byte[] initChain(AppGenesis genesis) {
    checkOpen();
    if (lastBlock != null) {
      throw new IllegalStateException("home already holds chain " + chain.chainId());
    }
    if (block != null) {
      throw new IllegalStateException("a block is in progress");
    }
    KvBranch branch = DatabaseView.forBlocks(db, this::writeBlock).branch();
    BlockContext ctx =
        BlockContext.of(INITIAL_HEIGHT, genesis.genesisTime(), branch, EventSink.discarding());
    try {
      branch.put(CHAIN_ID_KEY, chain.chainId().getBytes(StandardCharsets.UTF_8));
      for (AppGenesis.Balance b : genesis.balances()) {
        bank.mint(ctx, b.address(), b.denom(), b.amount());
      }
      ibc.initGenesis(ctx, genesis.clients(), genesis.channels());
      ibcV2.initGenesis(ctx, genesis.counterparties());
      rateLimits.initGenesis(ctx, genesis.rateLimits());
      gov.initGenesis(ctx, genesis.votingPeriodBlocks());
      NodeHome.LastBlock genesisBlock = new NodeHome.LastBlock(0, genesis.genesisTime());
      NodeHome.writeLastBlock(branch, genesisBlock);
      branch.commit(); // writeBlock: the genesis app hash
      lastBlock = genesisBlock;
      return lastAppHash.clone();
    } finally {
      branch.close();
    }
  }

  // ---------------------------------------------------------------- blocks

  /**
   * Starts block {@code height} at header time {@code time} and runs BeginBlock: the rate
   * limiter's epoch advance and window resets.
   *
   * @throws IllegalArgumentException unless {@code height} is the last height + 1 and {@code time}
   *     is after the last block's
   * @throws IllegalStateException if a block is already in progress
   */
  public void beginBlock(long height, Instant time) {
    checkOpen();
    NodeHome.LastBlock last = requireInitialized();
    if (block != null) {
      throw new IllegalStateException("block " + block.height + " is still in progress");
    }
    if (height != last.height() + 1) {
      throw new IllegalArgumentException(
          "next block must be " + (last.height() + 1) + ", got " + height);
    }
    if (!time.isAfter(last.time())) {
      throw new IllegalArgumentException(
          "block time " + time + " must be after the last block's " + last.time());
    }
    block =
        new BlockInProgress(height, time, DatabaseView.forBlocks(db, this::writeBlock).branch());
    try {
      rateLimits.beginBlock(block.ctx);
    } catch (RuntimeException e) { // the chain cannot run this block: leave nothing of it behind
      block.branch.discard();
      block = null;
      throw e;
    }
  }

  /**
   * Runs one transaction in a branch of the block: committed if its message succeeds, discarded
   * otherwise. A storage failure is not a transaction failure: it is rethrown (the node halts).
   */
  public TxResult deliverTx(Msg msg) {
    Objects.requireNonNull(msg, "msg");
    BlockInProgress b = requireBlock();
    if (b.ended) {
      throw new IllegalStateException("EndBlock already ran");
    }
    b.msgs.add(msg);
    b.events.startTx();
    BlockContext tx = b.ctx.branch();
    TxResult result;
    try {
      OptionalLong value = execute(tx, msg);
      tx.commit();
      result = new TxResult(msg, "", 0, "", b.events.endTx(), value);
    } catch (StorageException e) {
      tx.discard();
      b.events.endTx();
      throw e;
    } catch (RateLimitException e) {
      tx.discard();
      result = failure(msg, e.code().codespace().id(), e.code().code(), e, b);
    } catch (TxException e) {
      tx.discard();
      result = failure(msg, e.codespace(), e.code(), e, b);
    } catch (RuntimeException e) {
      // Like a recovered panic in a Cosmos SDK transaction: the transaction fails, the chain runs.
      tx.discard();
      result = failure(msg, TxException.SDK, 1, e, b);
    }
    b.txs.add(result);
    return result;
  }

  private static TxResult failure(
      Msg msg, String codespace, int code, RuntimeException e, BlockInProgress b) {
    return new TxResult(
        msg, codespace, code, String.valueOf(e.getMessage()), b.events.endTx(), OptionalLong.empty());
  }

  private OptionalLong execute(BlockContext ctx, Msg msg) {
    if (msg instanceof MsgTransfer m) {
      return OptionalLong.of(transfer.transfer(ctx, m));
    } else if (msg instanceof MsgSend m) {
      if (m.amount().signum() <= 0) {
        throw TxException.invalidCoins("amount must be positive, got " + m.amount());
      }
      bank.send(ctx, m.fromAddress(), m.toAddress(), m.denom(), m.amount());
    } else if (msg instanceof MsgSubmitProposal m) {
      return OptionalLong.of(gov.submitProposal(ctx, m));
    } else if (msg instanceof MsgUpdateClient m) {
      ibc.updateClient(ctx, m);
    } else if (msg instanceof MsgRecvPacket m) {
      ibc.recv(ctx, m);
    } else if (msg instanceof MsgAcknowledgement m) {
      ibc.acknowledge(ctx, m);
    } else if (msg instanceof MsgTimeout m) {
      ibc.timeout(ctx, m);
    } else if (msg instanceof MsgTransferV2 m) {
      return OptionalLong.of(transferV2.transfer(ctx, m));
    } else if (msg instanceof MsgSendPacketV2 m) {
      return OptionalLong.of(ibcV2.sendPacket(ctx, m));
    } else if (msg instanceof MsgRecvPacketV2 m) {
      ibcV2.recv(ctx, m);
    } else if (msg instanceof MsgAcknowledgementV2 m) {
      ibcV2.acknowledge(ctx, m);
    } else if (msg instanceof MsgTimeoutV2 m) {
      ibcV2.timeout(ctx, m);
    } else {
      throw TxException.invalidRequest("unknown message type " + msg.getClass().getName());
    }
    return OptionalLong.empty();
  }

  /** Runs EndBlock: proposals whose voting period ended, then the plugged {@link EndBlocker}s. */
  public void endBlock() {
    BlockInProgress b = requireBlock();
    if (b.ended) {
      throw new IllegalStateException("EndBlock already ran");
    }
    gov.endBlock(b.ctx);
    for (EndBlocker e : endBlockers) {
      e.endBlock(b.ctx);
    }
    b.ended = true;
  }

  /**
   * Commits the block: the block's writes, its height and time and the next app hash as one
   * synced LevelDB write batch.
   *
   * @throws IllegalStateException unless EndBlock ran
   */
  public BlockResult commit() {
    BlockInProgress b = requireBlock();
    if (!b.ended) {
      throw new IllegalStateException("EndBlock must run before Commit");
    }
    NodeHome.LastBlock committed = new NodeHome.LastBlock(b.height, b.time);
    NodeHome.writeLastBlock(b.branch, committed);
    b.branch.commit(); // one WriteBatch, fsynced, through writeBlock
    block = null;
    lastBlock = committed;
    return new BlockResult(
        new Block(b.height, b.time, b.msgs), lastAppHash, b.txs, b.events.all());
  }

  /**
   * Writes a committing block (or the genesis) as one synced batch with the next app hash in it,
   * then takes that hash as the last one: a crash leaves both the block and its hash, or neither.
   */
  private void writeBlock(WriteBatch batch) {
    byte[] next = AppHash.next(lastAppHash == null ? AppHash.BEFORE_GENESIS : lastAppHash, batch);
    batch.put(AppHash.KEY, next);
    db.writeSync(batch);
    lastAppHash = next;
  }

  /** Begin, deliver every message, end and commit: one whole block. */
  public BlockResult executeBlock(Block blockToRun) {
    beginBlock(blockToRun.height(), blockToRun.time());
    for (Msg m : blockToRun.msgs()) {
      deliverTx(m);
    }
    endBlock();
    return commit();
  }

  /** Discards a block in progress (nothing of it was written) and closes the database. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (block != null) {
      block.branch.discard();
      block = null;
    }
    db.close();
  }

  private NodeHome.LastBlock requireInitialized() {
    if (lastBlock == null) {
      throw new IllegalStateException("chain " + chain.chainId() + " has no genesis yet");
    }
    return lastBlock;
  }

  private BlockInProgress requireBlock() {
    checkOpen();
    if (block == null) {
      throw new IllegalStateException("no block in progress: call beginBlock first");
    }
    return block;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("chain " + chain.chainId() + " is closed");
    }
  }

  /** The state of the block between BeginBlock and Commit. */
  private static final class BlockInProgress {
    final long height;
    final Instant time;
    final KvBranch branch;
    final BlockEvents events = new BlockEvents();
    final BlockContext ctx;
    final List<Msg> msgs = new ArrayList<>();
    final List<TxResult> txs = new ArrayList<>();
    boolean ended;

    BlockInProgress(long height, Instant time, KvBranch branch) {
      this.height = height;
      this.time = time;
      this.branch = branch;
      this.ctx = BlockContext.of(height, time, branch, events);
    }
  }

  /** Collects a block's events in order and, while a transaction runs, that transaction's. */
  private static final class BlockEvents implements EventSink {
    private final List<Event> all = new ArrayList<>();
    private List<Event> current;

    @Override
    public void emit(Event event) {
      all.add(event);
      if (current != null) {
        current.add(event);
      }
    }

    void startTx() {
      current = new ArrayList<>();
    }

    List<Event> endTx() {
      List<Event> out = current;
      current = null;
      return out == null ? List.of() : out;
    }

    List<Event> all() {
      return all;
    }
  }

  /**
   * The database as the chain's code sees it: reads pass through; single puts and deletes are
   * refused (state changes only by a block's commit); a batch write is fsynced (the block's commit,
   * one synced batch) or, for a query view, refused too.
   */
  private static final class DatabaseView implements KvStore {
    private final LevelDbKvStore db;
    private final Consumer<WriteBatch> writer; // null: read-only

    private DatabaseView(LevelDbKvStore db, Consumer<WriteBatch> writer) {
      this.db = db;
      this.writer = writer;
    }

    /** What a block's branch commits into: its one batch goes to {@code writer}. */
    static DatabaseView forBlocks(LevelDbKvStore db, Consumer<WriteBatch> writer) {
      return new DatabaseView(db, Objects.requireNonNull(writer, "writer"));
    }

    /** What queries read. */
    static DatabaseView readOnly(LevelDbKvStore db) {
      return new DatabaseView(db, null);
    }

    @Override
    public Optional<byte[]> get(byte[] key) {
      return db.get(key);
    }

    @Override
    public boolean has(byte[] key) {
      return db.has(key);
    }

    @Override
    public void put(byte[] key, byte[] value) {
      throw refused();
    }

    @Override
    public void delete(byte[] key) {
      throw refused();
    }

    @Override
    public KvScan scan(byte[] fromInclusive, byte[] toExclusive) {
      return db.scan(fromInclusive, toExclusive);
    }

    @Override
    public void write(WriteBatch batch) {
      if (writer == null) {
        throw refused();
      }
      writer.accept(batch);
    }

    private IllegalStateException refused() {
      return new IllegalStateException(
          writer != null
              ? "the database is written only by a block's commit"
              : "queries are read-only");
    }
  }
}
