/**
 * The scenario runner behind {@code ratelimit simulate}: the scenario model, its strict parser
 * ({@link dev.ratelimit.cli.simulate.ScenarioParser}), the runner ({@link
 * dev.ratelimit.cli.simulate.ScenarioRunner}) that drives the real keeper, middleware, message
 * router and proposal handler, and the host faked from a scenario (bank supply, channels and
 * clients, a stand-in ICS-20 app, IBC core's channel keeper). The format is {@code
 * docs/SCENARIOS.md}.
 */
package dev.ratelimit.cli.simulate;
