package dev.ratelimit.app.tx;

import java.util.Objects;

/**
 * A transaction failure with a stable code, as a Cosmos SDK chain reports it (codespace + code).
 * Tests compare codes, never text.
 */
public final class TxException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The Cosmos SDK's own codespace. */
  public static final String SDK = "sdk";
  /** IBC core (channels, packets, clients) of this example. */
  public static final String IBC = "ibc";
  /** The ICS-20 transfer application. */
  public static final String TRANSFER = "transfer";
  /** Governance. */
  public static final String GOV = "gov";

  private final String codespace;
  private final int code;

  public TxException(String codespace, int code, String message) {
    super(message);
    this.codespace = Objects.requireNonNull(codespace, "codespace");
    if (code <= 0) {
      throw new IllegalArgumentException("code must be positive, got " + code);
    }
    this.code = code;
  }

  public String codespace() {
    return codespace;
  }

  public int code() {
    return code;
  }

  /** SDK ErrInsufficientFunds (5). */
  public static TxException insufficientFunds(String message) {
    return new TxException(SDK, 5, message);
  }

  /** SDK ErrInvalidAddress (7). */
  public static TxException invalidAddress(String message) {
    return new TxException(SDK, 7, message);
  }

  /** SDK ErrInvalidCoins (10). */
  public static TxException invalidCoins(String message) {
    return new TxException(SDK, 10, message);
  }

  /** SDK ErrInvalidRequest (18). */
  public static TxException invalidRequest(String message) {
    return new TxException(SDK, 18, message);
  }

  /** SDK ErrNotFound (38). */
  public static TxException notFound(String message) {
    return new TxException(SDK, 38, message);
  }

  /** gov ErrUnroutableProposalMsg (10): no handler routes a proposal's message. */
  public static TxException unroutableProposalMsg(String message) {
    return new TxException(GOV, 10, message);
  }

  /** gov ErrInvalidProposalMsg (12): a proposal's message fails its basic validation. */
  public static TxException invalidProposalMsg(String message) {
    return new TxException(GOV, 12, message);
  }

  /** gov ErrInvalidSigner (13): a proposal's message is not signed by the gov account alone. */
  public static TxException invalidSigner(String message) {
    return new TxException(GOV, 13, message);
  }
}
