package dev.ratelimit.cli.query;

import dev.ratelimit.core.ErrorCode;
import java.util.Optional;

/**
 * A node that could not be asked, or whose answer is not one: unreachable, timed out, an HTTP or
 * JSON-RPC error, an answer of another shape, or an error code it answered.
 */
public final class NodeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient ErrorCode moduleCode;

  public NodeException(String message) {
    this(message, null, null);
  }

  public NodeException(String message, Throwable cause) {
    this(message, null, cause);
  }

  private NodeException(String message, ErrorCode moduleCode, Throwable cause) {
    super(message, cause);
    this.moduleCode = moduleCode;
  }

  /** The node answered an error of the module's (its codespace, or an SDK class it uses). */
  static NodeException answered(String message, ErrorCode moduleCode) {
    return new NodeException(message, java.util.Objects.requireNonNull(moduleCode), null);
  }

  /** The module's error the node answered, if that is what this is. */
  public Optional<ErrorCode> moduleCode() {
    return Optional.ofNullable(moduleCode);
  }
}
