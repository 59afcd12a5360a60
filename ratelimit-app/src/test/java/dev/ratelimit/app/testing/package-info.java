/** Test helpers: the Osmosis/Stride network with accounts, governance and transfer shortcuts. */
package dev.ratelimit.app.testing;
