package dev.ratelimit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.core.store.KvEntry;
import dev.ratelimit.core.store.KvScan;
import dev.ratelimit.core.store.LevelDbKvStore;
import dev.ratelimit.core.store.NodeHome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The queries over a home left by {@code ratelimit simulate --home} of the walk-through. */
class QueryCommandsTest {
  static final String OSMO = "ibc/D24B4564BCD51D3D02D9987D92571EAC5915676A9BD6D9B0C1D0254CB8A5EA34";

  @TempDir static Path tmp;
  static Path home;

  @BeforeAll
  static void demoHome() throws Exception {
    home = tmp.resolve("home");
    Cli r = Cli.run("simulate", "--home", home.toString(), walkthrough().toString());
    assertEquals(0, r.exit(), r.toString());
  }

  private static Cli query(String... args) {
    String[] all = Stream.concat(Stream.of(args), Stream.of("--home", home.toString()))
        .toArray(String[]::new);
    return Cli.run(all);
  }

  /** A home the walk-through scenario wrote, its one write-ahead log, and that log's path. */
  private Path simulatedHome(String name) throws IOException {
    Path home = tmp.resolve(name);
    Cli made = Cli.run("simulate", "--home", home.toString(), walkthrough().toString());
    assertEquals(0, made.exit(), made.toString());
    return home;
  }

  private static Path writeAheadLog(Path home) throws IOException {
    try (Stream<Path> files = Files.list(home.resolve("data"))) {
      return files.filter(f -> f.toString().endsWith(".log")).findFirst().orElseThrow();
    }
  }

  /**
   * iq80 reports a damaged write-ahead log record on System.out and skips it: when the damage
   * costs the last blocks only, the query answers what is left, its output stays clean JSON, and
   * the damage is a warning on stderr.
   */
  @Test
  void damagedTailOfTheWriteAheadLog_isAWarningOnStderr_andStdoutStaysTheAnswer()
      throws IOException {
    Path damaged = simulatedHome("damaged-tail");
    Path log = writeAheadLog(damaged);
    byte[] bytes = Files.readAllBytes(log);
    for (int i = bytes.length - 60; i < bytes.length - 50; i++) {
      bytes[i] ^= (byte) 0xFF; // inside the last block's record
    }
    Files.write(log, bytes);

    Cli r = Cli.run("list-rate-limits", "--output", "json", "--home", damaged.toString());

    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().startsWith("{\n  \"rate_limits\": [{"), r.out());
    assertFalse(r.out().contains("corruption"), r.out());
    assertEquals(1, r.errLines().size(), r.toString());
    assertTrue(
        r.err().startsWith("ratelimit: warning: the database's write-ahead log is damaged (LevelDB:"
            + " corruption of"),
        r.err());
  }

  /**
   * A host that keeps the module under its own store prefix wrote a home the CLI cannot read (it
   * reads the example chain's {@code s/ratelimit/}): refused, naming the prefix it looked under.
   */
  @Test
  void homeWithTheModuleUnderAnotherPrefix_isRefused_namingThePrefixLookedUnder()
      throws IOException {
    Path other = simulatedHome("other-prefix");
    try (LevelDbKvStore db = LevelDbKvStore.open(NodeHome.dataDir(other))) {
      List<KvEntry> moved = new ArrayList<>();
      byte[] from = NodeHome.ratelimitPrefix();
      try (KvScan scan = db.scanPrefix(from)) {
        scan.forEachRemaining(moved::add);
      }
      assertFalse(moved.isEmpty());
      byte[] prefix = "mod/rl/".getBytes(StandardCharsets.US_ASCII);
      for (KvEntry e : moved) { // s/ratelimit/<k> becomes mod/rl/<k>
        byte[] rest = Arrays.copyOfRange(e.key(), from.length, e.key().length);
        byte[] key = Arrays.copyOf(prefix, prefix.length + rest.length);
        System.arraycopy(rest, 0, key, prefix.length, rest.length);
        db.put(key, e.value());
        db.delete(e.key());
      }
    }

    Cli r = Cli.run("list-rate-limits", "--home", other.toString());

    assertEquals(2, r.exit(), r.toString());
    assertEquals(List.of("ratelimit: cannot read the database of " + other + ": its rate-limit"
        + " store (keys under s/ratelimit/) holds no hour epoch: InitGenesis never ran on it, or"
        + " the chain keeps the module under another store prefix"), r.errLines());
  }

  /**
   * A log damaged from its first record loses InitGenesis too: the home is refused in one line
   * naming the damage, never read as a chain without limits (nor exported as an empty genesis).
   */
  @Test
  void writeAheadLogDamagedFromTheStart_isRefused_notReadAsNoLimits() throws IOException {
    Path damaged = simulatedHome("damaged-all");
    byte[] garbage = new byte[2000];
    new java.util.Random(7).nextBytes(garbage);
    Files.write(writeAheadLog(damaged), garbage);

    for (String[] command : new String[][] {
        {"list-rate-limits", "--home", damaged.toString()},
        {"genesis", "export", "--home", damaged.toString()}}) {
      Cli r = Cli.run(command);
      assertEquals(2, r.exit(), r.toString());
      assertEquals("", r.out());
      assertEquals(
          List.of("ratelimit: cannot read the database of " + damaged + ": its rate-limit store"
              + " (keys under s/ratelimit/) holds no hour epoch: InitGenesis never ran on it, or its"
              + " damaged write-ahead log"
              + " lost it (LevelDB: corruption of 2000 bytes: Invalid chunk length)"),
          r.errLines());
    }
  }

  private static Path walkthrough() {
    try {
      return Path.of(
          QueryCommandsTest.class.getResource("/scenarios/conformance/walkthrough.json").toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void listRateLimits_text() {
    Cli r = query("list-rate-limits");
    assertEquals(0, r.exit(), r.toString());
    assertEquals(List.of(
        "CHANNEL_OR_CLIENT_ID  DENOM" + " ".repeat(OSMO.length() - 5)
            + "  SEND_%  RECV_%  HOURS  INFLOW  OUTFLOW  CHANNEL_VALUE",
        "channel-5             " + OSMO + "  10      10      24     0       0        104"),
        r.outLines());
    assertEquals("", r.err());
  }

  @Test
  void listRateLimits_json_isTheGoResponse() {
    Cli r = query("list-rate-limits", "--output", "json");
    assertEquals(0, r.exit(), r.toString());
    assertEquals("{\n"
        + "  \"rate_limits\": [{\n"
        + "    \"path\": {\n"
        + "      \"denom\": \"" + OSMO + "\",\n"
        + "      \"channel_or_client_id\": \"channel-5\"\n"
        + "    },\n"
        + "    \"quota\": {\n"
        + "      \"max_percent_send\": \"10\",\n"
        + "      \"max_percent_recv\": \"10\",\n"
        + "      \"duration_hours\": \"24\"\n"
        + "    },\n"
        + "    \"flow\": {\n"
        + "      \"inflow\": \"0\",\n"
        + "      \"outflow\": \"0\",\n"
        + "      \"channel_value\": \"104\"\n"
        + "    }\n"
        + "  }]\n"
        + "}\n", r.out());
  }

  @Test
  void outputIsCaseInsensitive() {
    assertEquals(0, query("list-rate-limits", "--output", "JSON").exit());
  }

  @Test
  void rateLimit_byChannelAndDenom() {
    Cli r = query("rate-limit", "channel-5", "--denom", OSMO, "--output", "json");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().startsWith("{\n  \"rate_limit\": {\n    \"path\": {"), r.out());
    Cli byChannel = query("rate-limit", "channel-5", "--output", "json");
    assertEquals(0, byChannel.exit());
    assertTrue(byChannel.out().contains("\"rate_limits\": [{"), byChannel.out());
    Cli none = query("rate-limit", "channel-6");
    assertEquals(0, none.exit(), "an empty list is an answer");
    assertEquals(1, none.outLines().size(), "header only");
    // channel-6 is no channel of this home: a typo'd id is a valid id, so say it names nothing
    assertEquals(List.of("ratelimit: note: channel-6 is not a transfer channel or client of this"
        + " home (" + home.resolve("config").resolve("channels.json") + ")"), none.errLines());
    assertEquals(List.of(), byChannel.errLines());
  }

  @Test
  void rateLimit_pathWithNoLimit_isCode2_exit1() {
    Cli r = query("rate-limit", "channel-5", "--denom", "uatom");
    assertEquals(1, r.exit(), r.toString());
    assertEquals("", r.out());
    assertEquals(List.of("ratelimit: rate limit not found: no rate limit on channel-5/uatom (code 2)"),
        r.errLines()); // channel-5 is a channel of the home: no note
    // JSON: the query service's empty response, as the Go module's CLI prints it, and the same exit
    Cli json = query("rate-limit", "channel-5", "--denom", "uatom", "--output", "json");
    assertEquals(1, json.exit(), json.toString());
    assertEquals("{}\n", json.out());
    assertEquals(r.errLines(), json.errLines());
  }

  @Test
  void invalidChannelId_isCode8_exit2() {
    Cli r = query("rate-limit", "not-a-channel!", "--denom", OSMO);
    assertEquals(2, r.exit(), r.toString());
    assertEquals(1, r.errLines().size());
    assertTrue(r.err().contains("(code 8)"), r.err());
    Cli byChannel = query("rate-limit", "bad id");
    assertEquals(2, byChannel.exit());
    assertTrue(byChannel.err().contains("(code 8)"), byChannel.err());
    assertEquals( // the same words with or without --denom
        query("rate-limit", "bad id", "--denom", OSMO).errLines(), byChannel.errLines());
  }

  @Test
  void rateLimitsByChain_resolvesThroughChannelsJson() {
    Cli r = query("rate-limits-by-chain", "osmosis-1", "--output", "json");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains("\"channel_or_client_id\": \"channel-5\""), r.out());
    assertEquals("", r.err());
    Cli other = query("rate-limits-by-chain", "cosmoshub-4", "--output", "json");
    assertEquals(0, other.exit());
    assertEquals("{\n  \"rate_limits\": []\n}\n", other.out());
    // a chain id no channel leads to (a typo, say) answers an empty list with a note naming it
    assertEquals(List.of("ratelimit: note: no channel or client in "
        + home.resolve("config").resolve("channels.json") + " leads to \"cosmoshub-4\""),
        other.errLines());
  }

  /** Blank as Go's {@code strings.TrimSpace} sees it, as the query service decides. */
  @ParameterizedTest
  @ValueSource(strings = {"", " ", "\u00a0", "\u2003\t"})
  void rateLimitsByChain_blankChainId_exit2(String chainId) {
    Cli r = query("rate-limits-by-chain", chainId);
    assertEquals(2, r.exit(), r.toString());
    assertEquals("", r.out());
    assertEquals(List.of("ratelimit: CHAIN_ID must not be blank"), r.errLines());
  }

  @Test
  void rateLimitsByChain_aControlCharacterIsNoGoSpace_andLeadsNowhere() {
    for (String output : List.of("text", "json")) { // Java's isBlank would have refused it
      Cli r = query("rate-limits-by-chain", "\u001f", "--output", output);
      assertEquals(0, r.exit(), r.toString());
    }
    assertEquals("{\n  \"rate_limits\": []\n}\n",
        query("rate-limits-by-chain", "\u001f", "--output", "json").out());
  }

  @Test
  void rateLimitsByChain_withoutChannelsJson_isEmptyWithANote(@TempDir Path copy) throws IOException {
    Path h = copyHome(copy);
    Files.delete(h.resolve("config/channels.json"));
    Cli r = Cli.run("rate-limits-by-chain", "osmosis-1", "--home", h.toString(), "--output", "json");
    assertEquals(0, r.exit(), r.toString());
    assertEquals("{\n  \"rate_limits\": []\n}\n", r.out());
    assertEquals(1, r.errLines().size());
    assertTrue(r.err().contains("channels.json does not exist"), r.err());
  }

  @Test
  void emptyLists_printAnEmptyList() {
    Cli denoms = query("list-blacklisted-denoms", "--output", "json");
    assertEquals(0, denoms.exit(), denoms.toString());
    assertEquals("{\n  \"denoms\": []\n}\n", denoms.out());
    Cli pairs = query("list-whitelisted-addresses", "--output", "json");
    assertEquals(0, pairs.exit());
    assertEquals("{\n  \"address_pairs\": []\n}\n", pairs.out());
    Cli text = query("list-blacklisted-denoms");
    assertEquals(List.of("DENOM"), text.outLines());
    Cli textPairs = query("list-whitelisted-addresses");
    assertEquals(List.of("SENDER  RECEIVER"), textPairs.outLines());
  }

  @Test
  void remainingCapacity_json_measuresFromTheLastBlock() {
    Cli r = query("remaining-capacity", "channel-5", "--denom", OSMO, "--output", "json");
    assertEquals(0, r.exit(), r.toString());
    // the walk-through's last block is 2024-01-02T00:00:01Z; the 24h window ends at the next 00:00
    assertEquals("{\n"
        + "  \"denom\": \"" + OSMO + "\",\n"
        + "  \"channel_or_client_id\": \"channel-5\",\n"
        + "  \"send\": {\n"
        + "    \"max_percent\": \"10\",\n"
        + "    \"threshold\": \"10\",\n"
        + "    \"net_flow\": \"0\",\n"
        + "    \"remaining\": \"10\"\n"
        + "  },\n"
        + "  \"recv\": {\n"
        + "    \"max_percent\": \"10\",\n"
        + "    \"threshold\": \"10\",\n"
        + "    \"net_flow\": \"0\",\n"
        + "    \"remaining\": \"10\"\n"
        + "  },\n"
        + "  \"window_resets_at\": \"2024-01-03T00:00:00Z\",\n"
        + "  \"seconds_until_reset\": \"86399\",\n"
        + "  \"as_of_height\": \"4\",\n"
        + "  \"as_of_time\": \"2024-01-02T00:00:01Z\"\n"
        + "}\n", r.out());
  }

  @Test
  void remainingCapacity_text() {
    Cli r = query("remaining-capacity", "channel-5", "--denom", OSMO);
    assertEquals(0, r.exit(), r.toString());
    assertEquals(List.of(
        "path: channel-5 " + OSMO,
        "DIRECTION  MAX_%  THRESHOLD  NET_FLOW  REMAINING",
        "send       10     10         0         10",
        "recv       10     10         0         10",
        "window_resets_at: 2024-01-03T00:00:00Z",
        "seconds_until_reset: 86399",
        "as_of: height 4, 2024-01-02T00:00:01Z"), r.outLines());
  }

  /**
   * A new home (by simulate) whose one limit, 10 % both ways over 24 h on channel-5, is on the
   * denom {@code denomJson} spells inside a JSON string; its supply is 1000.
   */
  private Path homeWithALimitOn(String name, String denomJson) throws IOException {
    Path scenario = Files.writeString(tmp.resolve(name + ".json"), "{\"name\": \"" + name + "\","
        + " \"supply\": {\"" + denomJson + "\": \"1000\"}, \"channels\": [{\"channel_id\":"
        + " \"channel-5\"}], \"steps\": [{\"op\": \"msg\", \"msg\": {\"@type\":"
        + " \"/ratelimit.v1.MsgAddRateLimit\", \"authority\": \"authority\", \"denom\": \""
        + denomJson + "\", \"channel_or_client_id\": \"channel-5\", \"max_percent_send\": \"10\","
        + " \"max_percent_recv\": \"10\", \"duration_hours\": \"24\"}, \"expect\": {\"ok\": true}}]}");
    Path home = tmp.resolve(name + "-home");
    Cli made = Cli.run("simulate", "--home", home.toString(), scenario.toString());
    assertEquals(0, made.exit(), made.toString());
    return home;
  }

  /** As the other answers: before, the path went out as it was, a bidi override or a newline too. */
  @Test
  void remainingCapacity_escapesWhatIsUnsafeOnATerminal_inTextAndJson() throws IOException {
    String denom = "ev\u202eil\nx";
    Path bidi = homeWithALimitOn("bidi", "ev\\u202eil\\nx");

    Cli text = Cli.run("remaining-capacity", "channel-5", "--denom", denom, "--home", bidi.toString());
    assertEquals(0, text.exit(), text.toString());
    assertEquals("path: channel-5 \"ev\\u202eil\\u000ax\"", text.outLines().get(0));
    Cli json = Cli.run("remaining-capacity", "channel-5", "--denom", denom, "--output", "json",
        "--home", bidi.toString());
    assertEquals(0, json.exit(), json.toString());
    assertTrue(json.out().startsWith("{\n  \"denom\": \"ev\\u202eil\\nx\",\n"), json.out());
    assertFalse(json.out().contains("\u202e"), json.out());
  }

  /**
   * A denom with a space at its end (a limit governance set with a paste error) is quoted in the
   * text answers: bare, the line's end hid it, and it looked like the denom without the space.
   */
  @Test
  void aDenomEndingInASpace_isQuotedInTheTextAnswers() throws IOException {
    Path home = homeWithALimitOn("space", "uatom ");

    Cli list = Cli.run("list-rate-limits", "--home", home.toString());
    assertEquals(0, list.exit(), list.toString());
    assertEquals(List.of(
        "CHANNEL_OR_CLIENT_ID  DENOM     SEND_%  RECV_%  HOURS  INFLOW  OUTFLOW  CHANNEL_VALUE",
        "channel-5             \"uatom \"  10      10      24     0       0        1000"),
        list.outLines());
    Cli capacity =
        Cli.run("remaining-capacity", "channel-5", "--denom", "uatom ", "--home", home.toString());
    assertEquals(0, capacity.exit(), capacity.toString());
    assertEquals("path: channel-5 \"uatom \"", capacity.outLines().get(0));
  }

  /** A trace or a lower-case hash is not how the chain holds a denom: code 2, and what to give. */
  @Test
  void aDenomInAnotherForm_isCode2_withANoteNamingTheChainsForm() {
    Cli trace = query("rate-limit", "channel-5", "--denom", "transfer/channel-5/uosmo");
    assertEquals(1, trace.exit(), trace.toString());
    assertEquals("ratelimit: note: \"transfer/channel-5/uosmo\" is not a denom as this chain holds"
        + " it; did you mean " + OSMO + "? (ratelimit ibc-denom TRACE prints it)",
        trace.errLines().get(0));
    assertEquals(2, trace.errLines().size(), trace.toString());

    String lower = OSMO.toLowerCase(java.util.Locale.ROOT);
    Cli hash = query("remaining-capacity", "channel-5", "--denom", lower);
    assertEquals(1, hash.exit(), hash.toString());
    assertEquals("ratelimit: note: \"" + lower + "\" is not a denom as this chain holds it; did you"
        + " mean " + OSMO + "? (ratelimit ibc-denom TRACE prints it)", hash.errLines().get(0));

    Cli base = query("rate-limit", "channel-5", "--denom", "uatom"); // a denom as held: no note
    assertEquals(1, base.errLines().size(), base.toString());
  }

  @Test
  void remainingCapacity_needsDenom_andAnswersCode2ForNoLimit() {
    Cli missing = query("remaining-capacity", "channel-5");
    assertEquals(2, missing.exit());
    assertEquals(1, missing.errLines().size(), missing.toString());
    assertTrue(missing.err().contains("--denom"), missing.err());
    Cli none = query("remaining-capacity", "channel-5", "--denom", "uatom");
    assertEquals(1, none.exit());
    assertTrue(none.err().contains("(code 2)"), none.err());
  }

  @Test
  void queriesLeaveTheHomeByteIdentical() throws IOException {
    String before = hashTree(home);
    for (String[] args : List.of(
        new String[] {"list-rate-limits"},
        new String[] {"rate-limit", "channel-5", "--denom", OSMO},
        new String[] {"rate-limits-by-chain", "osmosis-1"},
        new String[] {"list-blacklisted-denoms"},
        new String[] {"list-whitelisted-addresses"},
        new String[] {"remaining-capacity", "channel-5", "--denom", OSMO},
        new String[] {"genesis", "export"})) {
      assertEquals(0, query(args).exit(), String.join(" ", args));
    }
    assertEquals(before, hashTree(home));
  }

  /** The two near misses of --home: the database directory itself, and a directory of homes. */
  @Test
  void homeNextToAHome_saysWhere() {
    Path data = home.resolve("data");
    Cli inside = Cli.run("list-rate-limits", "--home", data.toString());
    assertEquals(2, inside.exit(), inside.toString());
    assertEquals(List.of("ratelimit: no database in " + data + " (expected a LevelDB in "
        + data.resolve("data") + "; create one with 'ratelimit demo --home DIR' or a node); "
        + data + " is a database itself: its home is " + home.toAbsolutePath()), inside.errLines());
    Cli above = Cli.run("list-rate-limits", "--home", home.getParent().toString());
    assertEquals(2, above.exit(), above.toString());
    // the walk-through's home, among the homes other tests of this class leave beside it
    assertTrue(above.err().matches("(?s).*; homes in it: (.+, )?home(, .+)?\n"), above.err());
  }

  @Test
  void homeWithoutDatabase_exit2(@TempDir Path empty) throws IOException {
    Cli r = Cli.run("list-rate-limits", "--home", empty.toString());
    assertEquals(2, r.exit(), r.toString());
    assertEquals(1, r.errLines().size());
    assertTrue(r.err().startsWith("ratelimit: no database in " + empty), r.err());
    assertFalse(Files.exists(empty.resolve("data")), "a query must not create a database");
    Cli missing = Cli.run("list-rate-limits", "--home", empty.resolve("nope").toString());
    assertEquals(2, missing.exit());
    assertEquals(
        List.of("ratelimit: home " + empty.resolve("nope") + " does not exist"), missing.errLines());
    Path file = empty.resolve("file");
    Files.writeString(file, "");
    Cli notADirectory = Cli.run("list-rate-limits", "--home", file.toString());
    assertEquals(2, notADirectory.exit());
    assertEquals(
        List.of("ratelimit: home " + file + " is not a directory"), notADirectory.errLines());
  }

  @Test
  void corruptDatabase_exit2_oneLine(@TempDir Path copy) throws IOException {
    Path h = copyHome(copy);
    try (Stream<Path> files = Files.list(h.resolve("data"))) {
      for (Path f : files.toList()) {
        if (f.getFileName().toString().startsWith("MANIFEST")) {
          Files.write(f, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9});
        }
      }
    }
    Cli r = Cli.run("list-rate-limits", "--home", h.toString());
    assertEquals(2, r.exit(), r.toString());
    assertEquals(1, r.errLines().size(), r.toString());
    assertFalse(r.err().contains("\tat "), r.err());
  }

  /** Changes a home's database directly, as damage or another release would have left it. */
  private static void inDatabase(
      Path home, java.util.function.Consumer<dev.ratelimit.core.store.KvStore> change) {
    try (dev.ratelimit.core.store.LevelDbKvStore db = dev.ratelimit.core.store.LevelDbKvStore.open(
        dev.ratelimit.core.store.NodeHome.dataDir(home))) {
      change.accept(db);
    }
  }

  /** The current time stands in, warned, and to the second as a block time is (no nanoseconds). */
  @Test
  void remainingCapacity_ofAHomeWithoutItsLastBlock_measuresFromNow_toTheSecond(@TempDir Path copy)
      throws IOException {
    Path h = copyHome(copy);
    inDatabase(h, db -> db.delete(dev.ratelimit.core.store.NodeHome.lastBlockKey()));

    Cli r = Cli.run("remaining-capacity", "channel-5", "--denom", OSMO, "--output", "json",
        "--home", h.toString());

    assertEquals(0, r.exit(), r.toString());
    assertEquals(List.of("ratelimit: warning: " + h + " records no last block; measuring from the"
        + " current time"), r.errLines());
    assertTrue(r.out().contains("\"as_of_height\": \"0\""), r.out());
    assertTrue(r.out().matches("(?s).*\"as_of_time\": \"[0-9-]+T[0-9:]+Z\".*"), r.out());
  }

  @Test
  void homeOfTheFirstStoreLayout_isRefusedWithOneLine_notReadAsEmpty(@TempDir Path copy)
      throws IOException {
    Path h = copyHome(copy);
    inDatabase(h, db -> {
      dev.ratelimit.core.store.KvStore module = dev.ratelimit.core.store.NodeHome.rateLimitStore(db);
      module.delete(new byte[] {0x0F}); // no layout version
      module.put(new byte[] {0x01, 'c', 0, 'u', 0}, new byte[] {0x0A}); // a version-1 quota row
    });
    Cli r = Cli.run("list-rate-limits", "--home", h.toString());
    assertEquals(2, r.exit(), r.toString());
    assertEquals(1, r.errLines().size(), r.toString());
    assertTrue(r.err().contains("first layout (version 1"), r.err());
  }

  @Test
  void corruptChannelsJson_failsOnlyTheQueryThatNeedsIt_exit2(@TempDir Path copy)
      throws IOException {
    Path h = copyHome(copy);
    Files.writeString(h.resolve("config/channels.json"), "{\"channel-5\": 5}");
    Cli r = Cli.run("rate-limits-by-chain", "osmosis-1", "--home", h.toString());
    assertEquals(2, r.exit(), r.toString());
    assertEquals(1, r.errLines().size());
    assertTrue(r.err().contains("channels.json: \"channel-5\" must map to a chain id"), r.err());

    for (String command : new String[] {"list-rate-limits", "list-blacklisted-denoms"}) {
      Cli other = Cli.run(command, "--home", h.toString());
      assertEquals(0, other.exit(), other.toString());
      assertEquals("", other.err());
    }
    // rate-limit reads it only for a note: it warns, and the answer and exit status stand
    Cli empty = Cli.run("rate-limit", "channel-55", "--output", "json", "--home", h.toString());
    assertEquals(0, empty.exit(), empty.toString());
    assertEquals("{\n  \"rate_limits\": []\n}\n", empty.out());
    assertEquals(1, empty.errLines().size(), empty.toString());
    assertTrue(empty.err().startsWith("ratelimit: warning: ")
        && empty.err().contains("\"channel-5\" must map to a chain id"), empty.err());
    Cli none = Cli.run("rate-limit", "channel-5", "--denom", "uatom", "--output", "json",
        "--home", h.toString());
    assertEquals(1, none.exit(), none.toString());
    assertEquals("{}\n", none.out());
    assertEquals(2, none.errLines().size(), none.toString()); // the warning, then code 2
  }

  @Test
  void aChannelsFileWithAByteOrderMark_isRead(@TempDir Path copy) throws IOException {
    Path h = copyHome(copy);
    Files.writeString(h.resolve("config/channels.json"), "\uFEFF{\"channel-5\": \"osmosis-1\"}");

    Cli r = Cli.run("rate-limits-by-chain", "osmosis-1", "--output", "json", "--home", h.toString());

    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains("\"channel_or_client_id\": \"channel-5\""), r.out());
    assertEquals("", r.err());
  }

  /** Before, Jackson read the first object and ignored what followed; ids and chains went unchecked. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "{\"channel-5\": \"osmosis-1\"}{\"channel-5\": \"evil-1\"} | channels.json: bad JSON: Trailing token",
      "{\"channel-5\": \"osmosis-1\"} garbage | channels.json: bad JSON: ",
      "{\"chan!\": \"osmosis-1\"}                 | channels.json: \"chan!\" is not a channel or client id",
      "{\"channel-5\": \" \"}                     | channels.json: \"channel-5\" must map to a chain id (a non-blank string)",
      "{\"channel-5\": \"\"}                      | channels.json: \"channel-5\" must map to a chain id (a non-blank string)"})
  void aChannelsFileThatIsNotOneFlatObjectOfIdsToChains_isRefused_exit2(
      String content, String error, @TempDir Path copy) throws IOException {
    Path h = copyHome(copy);
    Files.writeString(h.resolve("config/channels.json"), content);

    Cli r = Cli.run("rate-limits-by-chain", "osmosis-1", "--home", h.toString());

    assertEquals(2, r.exit(), r.toString());
    assertEquals("", r.out());
    assertEquals(1, r.errLines().size(), r.toString());
    assertTrue(r.err().contains(error), r.err());
  }

  @Test
  void aDatabaseThatCannotBeOpened_isNamedByTheHomesPath_notTheTemporaryCopy(@TempDir Path copy)
      throws IOException {
    Path h = copyHome(copy);
    Files.writeString(h.resolve("data/CURRENT"), "MANIFEST-000099\n");
    Cli r = Cli.run("list-rate-limits", "--home", h.toString());
    assertEquals(2, r.exit(), r.toString());
    assertEquals(1, r.errLines().size(), r.toString());
    assertTrue(r.err().contains(h.resolve("data").resolve("MANIFEST-000099").toString()), r.err());
    assertFalse(r.err().contains("ratelimit-query-"), r.err());
  }

  @Test
  void homeIsRequired() {
    Cli r = Cli.run("list-rate-limits");
    assertEquals(2, r.exit());
    assertEquals(1, r.errLines().size());
    assertTrue(r.err().contains("--home"), r.err());
  }

  static Path copyHome(Path dir) throws IOException {
    Path h = dir.resolve("home");
    try (Stream<Path> all = Files.walk(home)) {
      for (Path p : all.toList()) {
        Path target = h.resolve(home.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return h;
  }

  static String hashTree(Path root) throws IOException {
    TreeMap<String, String> hashes = new TreeMap<>();
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.toList()) {
        String rel = root.relativize(p).toString();
        if (Files.isRegularFile(p)) {
          hashes.put(rel, sha256(Files.readAllBytes(p)) + " " + Files.getLastModifiedTime(p));
        } else {
          hashes.put(rel + "/", "dir");
        }
      }
    }
    return hashes.toString();
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
