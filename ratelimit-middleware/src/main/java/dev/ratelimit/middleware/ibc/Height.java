package dev.ratelimit.middleware.ibc;

/**
 * An IBC client height ({@code ibc.core.client.v1.Height}): revision number and revision height.
 * Both are uint64 on the wire; Java {@code long}s here, read as unsigned (a negative {@code long}
 * stands for a value of 2^63 or more).
 */
public record Height(long revisionNumber, long revisionHeight) {

  /** The zero height: no timeout height. */
  public static final Height ZERO = new Height(0, 0);

  /** True for {@code 0-0}, which in a packet means "no timeout height". */
  public boolean isZero() {
    return revisionNumber == 0 && revisionHeight == 0;
  }

  /** {@code revisionNumber-revisionHeight} as ibc-go prints it, both unsigned. */
  @Override
  public String toString() {
    return Long.toUnsignedString(revisionNumber) + "-" + Long.toUnsignedString(revisionHeight);
  }
}
