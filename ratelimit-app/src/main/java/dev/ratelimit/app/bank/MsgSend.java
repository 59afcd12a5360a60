package dev.ratelimit.app.bank;

import dev.ratelimit.app.tx.Msg;
import java.math.BigInteger;
import java.util.Objects;

/** Sends coins from one account to another ({@code cosmos.bank.v1beta1.MsgSend}, one coin). */
public record MsgSend(String fromAddress, String toAddress, String denom, BigInteger amount)
    implements Msg {
  public MsgSend {
    Objects.requireNonNull(fromAddress, "fromAddress");
    Objects.requireNonNull(toAddress, "toAddress");
    Objects.requireNonNull(denom, "denom");
    Objects.requireNonNull(amount, "amount");
  }
}
