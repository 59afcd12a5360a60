package dev.ratelimit.cli.query;

import dev.ratelimit.core.ErrorCode;
import java.util.Objects;
import java.util.Optional;

/**
 * A node that could not be asked, or whose answer is not one: unreachable, timed out, too large,
 * an HTTP or JSON-RPC error, an answer of another shape, or an error code it answered. Which of
 * these it is decides the command's exit status: the module's own error exits as the same error
 * from a home, a request the node refused as a usage error, anything else as the node's failure.
 */
public final class NodeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient ErrorCode moduleCode;
  private final boolean refused;

  public NodeException(String message) {
    this(message, null, false, null);
  }

  public NodeException(String message, Throwable cause) {
    this(message, null, false, cause);
  }

  private NodeException(String message, ErrorCode moduleCode, boolean refused, Throwable cause) {
    super(message, cause);
    this.moduleCode = moduleCode;
    this.refused = refused;
  }

  /** The node answered an error of the module's codespace. */
  static NodeException moduleError(String message, ErrorCode moduleCode) {
    return new NodeException(message, Objects.requireNonNull(moduleCode), false, null);
  }

  /** The node refused the request itself (an invalid request or height). */
  static NodeException refused(String message) {
    return new NodeException(message, null, true, null);
  }

  /** The module's error the node answered, if that is what this is. */
  public Optional<ErrorCode> moduleCode() {
    return Optional.ofNullable(moduleCode);
  }

  /** Whether the node refused the request itself (an invalid request or height). */
  public boolean refused() {
    return refused;
  }
}
