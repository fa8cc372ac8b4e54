"""What tests (and bench/) use and the product does not: waiting for another process, and
the Valkey Cluster and Sentinel groups they start on loopback."""
