"""Thin asyncio adapters around the sans-IO protocol: TCP transport, zeroconf discovery,
lobby, persistence and (with the protocol session) the peer node."""
