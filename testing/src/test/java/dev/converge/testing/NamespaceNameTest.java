package dev.converge.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.mockito.Mockito;

class NamespaceNameTest {

  @Test
  void namespaceNamesAreValidDnsLabelsNamedAfterTheTest() throws Exception {
    Method method =
        NamespaceNameTest.class.getDeclaredMethod(
            "aVeryLongTestMethodNameThatWouldNeverFitIntoASingleKubernetesNamespaceLabelOnItsOwn");
    ExtensionContext context = Mockito.mock(ExtensionContext.class);
    Mockito.when(context.getTestClass()).thenReturn(Optional.of(NamespaceNameTest.class));
    Mockito.when(context.getTestMethod()).thenReturn(Optional.of(method));

    String name = LocalClusterExtension.namespaceName(context);

    assertThat(name)
        .hasSizeLessThanOrEqualTo(63)
        .matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")
        .startsWith("namespace-name-test-a-very-long");
    assertThat(LocalClusterExtension.namespaceName(context)).isNotEqualTo(name);
  }

  void aVeryLongTestMethodNameThatWouldNeverFitIntoASingleKubernetesNamespaceLabelOnItsOwn() {}
}
