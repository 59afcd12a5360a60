package dev.ratelimit.cli.simulate;

import dev.ratelimit.core.ErrorCode;
import java.util.Optional;

/**
 * An expected {@code {"ok": ..., "code": ...}}: each part optional ({@code code} alone implies a
 * failure).
 */
record Outcome(Optional<Boolean> ok, Optional<Code> code) {
  static final Outcome OK = new Outcome(Optional.of(true), Optional.empty());

  boolean isEmpty() {
    return ok.isEmpty() && code.isEmpty();
  }

  /** True when the outcome says the step must succeed. */
  boolean expectsSuccess() {
    return ok.orElse(code.isEmpty());
  }

  /**
   * An expected error code: a module code of the {@code ratelimit} codespace (a number) or one of
   * the generic classes {@code unauthorized}, {@code invalid_address}, {@code invalid_request}.
   */
  record Code(Integer number, String label) {
    static Code of(int number) {
      return new Code(number, null);
    }

    static Code of(String label) {
      return new Code(null, label);
    }

    boolean matches(ErrorCode actual) {
      if (actual == null) {
        return false;
      }
      if (number != null) {
        return actual.codespace() == ErrorCode.Codespace.RATELIMIT && actual.code() == number;
      }
      return actual.codespace() == ErrorCode.Codespace.SDK && actual.label().equals(label);
    }

    @Override
    public String toString() {
      return number != null ? number.toString() : label;
    }
  }
}
