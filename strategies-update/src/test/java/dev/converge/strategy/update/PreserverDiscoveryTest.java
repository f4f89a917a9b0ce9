package dev.converge.strategy.update;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.strategy.ServerFieldPreserver;
import dev.converge.strategy.update.internal.PersistentVolumeClaimPreserver;
import dev.converge.strategy.update.internal.ServicePreserver;
import java.util.List;
import org.junit.jupiter.api.Test;

class PreserverDiscoveryTest {

  @Test
  void builtInAndUserPreserversAreFoundThroughServiceLoader() {
    List<String> found =
        UpdateStrategy.discoverPreservers().stream()
            .map(ServerFieldPreserver::getClass)
            .map(Class::getName)
            .toList();

    assertThat(found)
        .contains(
            ServicePreserver.class.getName(),
            PersistentVolumeClaimPreserver.class.getName(),
            ShardPreserver.class.getName());
  }
}
