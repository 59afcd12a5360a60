package dev.ratelimit.cli.simulate;

/** Sees every step of a run right after it ran (the demo builds its table this way). */
@FunctionalInterface
public interface StepListener {
  /**
   * @param state the chain as the step left it
   */
  void afterStep(Scenario scenario, Step step, StepOutcome outcome, StateView state);
}
