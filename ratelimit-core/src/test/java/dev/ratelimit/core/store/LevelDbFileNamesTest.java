package dev.ratelimit.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.impl.Filename;
import org.iq80.leveldb.impl.Iq80DBFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * iq80 names its files in the default format locale; {@link LevelDbKvStore} refuses a locale, or a
 * directory, whose names another locale could not find.
 */
class LevelDbFileNamesTest {
  private static final Locale EGYPT = Locale.forLanguageTag("ar-EG");
  private static final Locale EGYPT_ZERO_TO_NINE = Locale.forLanguageTag("ar-EG-u-nu-latn");

  @TempDir Path tempDir;
  private Locale formatBefore;

  @BeforeEach
  void rememberFormatLocale() {
    formatBefore = Locale.getDefault(Locale.Category.FORMAT);
  }

  @AfterEach
  void restoreFormatLocale() {
    Locale.setDefault(Locale.Category.FORMAT, formatBefore);
  }

  @Test
  void iq80NamesItsFilesInTheDefaultFormatLocale() {
    // what the rule is about: if a later iq80 names files in Locale.ROOT, this fails
    Locale.setDefault(Locale.Category.FORMAT, EGYPT);
    assertEquals("٠٠٠٠٠٣.log", Filename.logFileName(3));
    assertEquals("MANIFEST-٠٠٠٠٠٢", Filename.descriptorFileName(2));
    Locale.setDefault(Locale.Category.FORMAT, Locale.ROOT);
    assertEquals("000003.log", Filename.logFileName(3));
  }

  @ParameterizedTest
  @ValueSource(strings = {"en-US", "tr-TR", "hi-IN", "ar-MA", "zh-CN", "ar-EG-u-nu-latn", "und"})
  void localesWritingDigitsZeroToNine_namePortably(String tag) {
    assertTrue(LevelDbKvStore.namesFilesPortably(Locale.forLanguageTag(tag)), tag);
    assertEquals("1234567890", LevelDbKvStore.iq80FileNumber(Locale.forLanguageTag(tag)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"ar-EG", "ar-SA", "fa-IR", "bn-BD", "ne-NP", "my-MM", "th-TH-u-nu-thai"})
  void localesWritingOtherDigits_doNot(String tag) {
    assertFalse(LevelDbKvStore.namesFilesPortably(Locale.forLanguageTag(tag)), tag);
  }

  @Test
  void open_underALocaleWritingOtherDigits_isRefusedBeforeCreatingAnything() {
    Locale.setDefault(Locale.Category.FORMAT, EGYPT);
    Path dir = tempDir.resolve("db");
    StorageException e = assertThrows(StorageException.class, () -> LevelDbKvStore.open(dir));
    assertEquals(
        "cannot open LevelDB at " + dir + ": iq80 names its files in the default format locale"
            + " ar-EG, which writes the number 1234567890 as ١٢٣٤٥٦٧٨٩٠, and a database so named"
            + " cannot be opened under a locale with other digits: add nu-latn to the locale's"
            + " Unicode extensions (the same language, digits 0-9; -Duser.extensions=u-nu-latn"
            + " when it has none) or use another format locale",
        e.getMessage());
    assertFalse(Files.exists(dir));
    assertFalse(LevelDbKvStore.namesFilesPortably());
  }

  @Test
  void aWriteAfterTheLocaleChangedToOtherDigits_isRefused_andTheStoreGoesOnOnceItIsBack()
      throws IOException {
    Path dir = tempDir.resolve("db");
    try (LevelDbKvStore db = LevelDbKvStore.open(dir)) {
      db.put(bytes("a"), bytes("1"));
      Locale.setDefault(Locale.Category.FORMAT, EGYPT);
      StorageException e =
          assertThrows(StorageException.class, () -> db.put(bytes("b"), bytes("2")));
      assertEquals(
          "LevelDB at " + dir + ": the default format locale changed to ar-EG while the database"
              + " is open, which writes the number 1234567890 as ١٢٣٤٥٦٧٨٩٠, and iq80 would give"
              + " the files it writes names no other locale finds: keep a format locale with"
              + " digits 0-9 while a database is open",
          e.getMessage());
      assertThrows(StorageException.class, () -> db.delete(bytes("a")));
      WriteBatch batch = new WriteBatch().put(bytes("c"), bytes("3"));
      assertThrows(StorageException.class, () -> db.writeSync(batch));
      assertEquals("1", new String(db.get(bytes("a")).orElseThrow(), StandardCharsets.UTF_8));
      assertFalse(db.has(bytes("b")));

      Locale.setDefault(Locale.Category.FORMAT, EGYPT_ZERO_TO_NINE);
      db.put(bytes("b"), bytes("2"));
      assertTrue(db.has(bytes("b")));
      assertFalse(db.has(bytes("c")));
    }
    assertEquals(List.of("000003.log", "CURRENT", "LOCK", "MANIFEST-000002"), names(dir));
  }

  @Test
  void useDigitsZeroToNine_keepsTheLanguage_andTheDatabaseOpensWithPortableNames()
      throws IOException {
    Locale.setDefault(Locale.Category.FORMAT, EGYPT);
    LevelDbKvStore.useDigitsZeroToNineForFormatting();
    assertEquals(EGYPT_ZERO_TO_NINE, Locale.getDefault(Locale.Category.FORMAT));
    assertTrue(LevelDbKvStore.namesFilesPortably());

    Path dir = tempDir.resolve("db");
    try (LevelDbKvStore db = LevelDbKvStore.open(dir)) {
      db.put(bytes("k"), bytes("v"));
    }
    assertEquals(List.of("000003.log", "CURRENT", "LOCK", "MANIFEST-000002"), names(dir));
    // a second call changes nothing
    LevelDbKvStore.useDigitsZeroToNineForFormatting();
    assertEquals(EGYPT_ZERO_TO_NINE, Locale.getDefault(Locale.Category.FORMAT));
  }

  @Test
  void useDigitsZeroToNine_keepsAnOldStyleVariant() {
    // Locale.Builder.setLocale would refuse the variant "WIN" (IllformedLocaleException)
    Locale.setDefault(Locale.Category.FORMAT, new Locale("ar", "EG", "WIN"));
    LevelDbKvStore.useDigitsZeroToNineForFormatting();
    assertEquals("ar-EG-u-nu-latn-x-lvariant-WIN",
        Locale.getDefault(Locale.Category.FORMAT).toLanguageTag());
    assertTrue(LevelDbKvStore.namesFilesPortably());
  }

  @Test
  void useDigitsZeroToNine_underALocaleWithThem_changesNothing() {
    Locale turkey = Locale.forLanguageTag("tr-TR");
    Locale.setDefault(Locale.Category.FORMAT, turkey);
    LevelDbKvStore.useDigitsZeroToNineForFormatting();
    assertEquals(turkey, Locale.getDefault(Locale.Category.FORMAT));
  }

  @Test
  void aDatabaseNamedUnderOtherDigits_isRefusedNamingTheFile_andTheAdvisedRenameRecoversIt()
      throws IOException {
    Path dir = tempDir.resolve("db");
    assumeTrue(
        canNameAFile(tempDir, "٠"),
        "this JVM cannot name files in Arabic digits (sun.jnu.encoding "
            + System.getProperty("sun.jnu.encoding") + ", a POSIX locale)");
    // what iq80 alone (or a host that changed the locale while a database was open) leaves behind
    Locale.setDefault(Locale.Category.FORMAT, EGYPT);
    DB raw = Iq80DBFactory.factory.open(dir.toFile(), new Options().createIfMissing(true));
    raw.put(bytes("k"), bytes("v"));
    raw.close();
    assertEquals(List.of("CURRENT", "LOCK", "MANIFEST-٠٠٠٠٠٢", "٠٠٠٠٠٣.log"), names(dir));

    Locale.setDefault(Locale.Category.FORMAT, Locale.ROOT);
    StorageException e = assertThrows(StorageException.class, () -> LevelDbKvStore.open(dir));
    assertEquals(
        "cannot open LevelDB at " + dir + ": its file MANIFEST-٠٠٠٠٠٢ was named under a locale"
            + " that writes other digits than 0-9, and iq80 would look for MANIFEST-000002: rename"
            + " each such file to its 0-9 name, and likewise the manifest name inside CURRENT",
        e.getMessage());
    assertEquals(List.of("CURRENT", "LOCK", "MANIFEST-٠٠٠٠٠٢", "٠٠٠٠٠٣.log"), names(dir));

    // the advice, followed
    for (String name : names(dir)) {
      Files.move(dir.resolve(name), dir.resolve(LevelDbKvStore.withDigitsZeroToNine(name)));
    }
    Path current = dir.resolve("CURRENT");
    Files.writeString(
        current,
        LevelDbKvStore.withDigitsZeroToNine(Files.readString(current, StandardCharsets.UTF_8)),
        StandardCharsets.UTF_8);
    try (LevelDbKvStore db = LevelDbKvStore.open(dir)) {
      assertEquals("v", new String(db.get(bytes("k")).orElseThrow(), StandardCharsets.UTF_8));
    }
  }

  @Test
  void unportableFileName_saysWhichFile_whatIq80WouldLookFor_andWhatToDo() {
    for (String fine : List.of("000003.log", "MANIFEST-000002", "000012.sst", "000004.dbtmp",
        "CURRENT", "LOCK", "LOG", "LOG.old", "notes-٢٠٢٤.txt", "٣")) {
      assertEquals(Optional.empty(), LevelDbKvStore.unportableFileName(fine, "UTF-8"), fine);
    }
    String advice = "rename each such file to its 0-9 name, and likewise the manifest name inside"
        + " CURRENT";
    assertEquals(
        Optional.of("its file ٠٠٠٠٠٣.log was named under a locale that writes other digits than"
            + " 0-9, and iq80 would look for 000003.log: " + advice),
        LevelDbKvStore.unportableFileName("٠٠٠٠٠٣.log", "UTF-8"));
    assertEquals(
        Optional.of("its file MANIFEST-۰۰۰۰۰۲ was named under a locale that writes other digits"
            + " than 0-9, and iq80 would look for MANIFEST-000002: " + advice),
        LevelDbKvStore.unportableFileName("MANIFEST-۰۰۰۰۰۲", "UTF-8"));
    // the bytes of "٠٣.log" read as ASCII (U+FFFD) and as ISO-8859-1
    for (String[] misread : new String[][] {
        {"\uFFFD\uFFFD\uFFFD\uFFFD.log", "ANSI_X3.4-1968"},
        {"\u00D9\u00A0\u00D9\u00A3.sst", "ISO-8859-1"}}) {
      assertEquals(
          Optional.of("iq80 cannot read the number in its file " + misread[0] + " (this JVM"
              + " decodes file names as " + misread[1] + ", from the OS locale), as when iq80"
              + " named it under a locale that writes other digits than 0-9 and an encoding that"
              + " cannot hold them reads the name: under a UTF-8 OS locale, " + advice),
          LevelDbKvStore.unportableFileName(misread[0], misread[1]));
    }
  }

  @Test
  void otherFilesWithOtherDigits_areNotIq80s_andDoNotStopTheOpen() throws IOException {
    assumeTrue(canNameAFile(tempDir, "٠"), "this JVM cannot name files in Arabic digits");
    Path dir = Files.createDirectories(tempDir.resolve("db"));
    Files.writeString(dir.resolve("notes-٢٠٢٤.txt"), "an operator's file");
    try (LevelDbKvStore db = LevelDbKvStore.open(dir)) {
      db.put(bytes("k"), bytes("v"));
    }
    assertTrue(names(dir).contains("000003.log"), names(dir).toString());
  }

  @Test
  void aFileNamedInArabicDigits_isRefused_whateverTheJvmsFileNameEncoding()
      throws IOException, InterruptedException {
    assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "needs /bin/sh to write the name's bytes");
    Path dir = Files.createDirectories(tempDir.resolve("db"));
    // the UTF-8 bytes of "٠٣.log", written by the shell: this JVM may not be able to name it
    Process touch = new ProcessBuilder(
            "/bin/sh", "-c", "touch \"$(printf '\\331\\240\\331\\243.log')\"")
        .directory(dir.toFile())
        .inheritIO()
        .start();
    assertEquals(0, touch.waitFor());
    String name = names(dir).get(0);
    // however this JVM decodes it (UTF-8: "٠٣.log"; ASCII: U+FFFD; ISO-8859-1: letters), refused
    Optional<String> why =
        LevelDbKvStore.unportableFileName(name, System.getProperty("sun.jnu.encoding"));
    assertTrue(why.isPresent(), name);

    StorageException e = assertThrows(StorageException.class, () -> LevelDbKvStore.open(dir));
    assertEquals("cannot open LevelDB at " + dir + ": " + why.get(), e.getMessage());
    assertEquals(List.of(name), names(dir), "nothing was created");
  }

  @Test
  void withDigitsZeroToNine_rewritesDecimalDigitsOfEveryScript_only() {
    assertEquals("000003.log", LevelDbKvStore.withDigitsZeroToNine("٠٠٠٠٠٣.log"));
    assertEquals("MANIFEST-000012", LevelDbKvStore.withDigitsZeroToNine("MANIFEST-۰۰۰۰۱۲"));
    assertEquals("000789.ldb", LevelDbKvStore.withDigitsZeroToNine("০০০৭৮৯.ldb"));
    assertEquals("CURRENT", LevelDbKvStore.withDigitsZeroToNine("CURRENT"));
    // a superscript two is a number but not a decimal digit
    assertEquals("x²", LevelDbKvStore.withDigitsZeroToNine("x²"));
  }

  private static boolean canNameAFile(Path dir, String name) {
    try {
      Path probe = Files.createFile(dir.resolve(name));
      boolean same = names(dir).contains(name);
      Files.delete(probe);
      return same;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }
}
