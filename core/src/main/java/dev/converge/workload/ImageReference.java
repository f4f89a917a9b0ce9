package dev.converge.workload;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed container image reference, {@code [registry/]repository[:tag][@digest]}, following the
 * grammar of the distribution project's reference package (what {@code docker pull} and the kubelet
 * accept). The CRD schema can only say "a string"; this is the check the schema cannot make.
 *
 * @param registry the registry host (with port), empty when the reference names none
 * @param repository the path, e.g. {@code library/nginx} or {@code team/app}
 * @param tag the tag, empty when none is given
 * @param digest the digest ({@code algorithm:hex}), empty when none is given
 */
public record ImageReference(String registry, String repository, String tag, String digest) {

  /** The longest reference the grammar allows. */
  public static final int MAX_LENGTH = 255;

  private static final String ALNUM = "[a-z0-9]+";
  private static final String SEPARATOR = "(?:[._]|__|[-]+)";
  private static final Pattern PATH_COMPONENT =
      Pattern.compile(ALNUM + "(?:" + SEPARATOR + ALNUM + ")*");
  private static final Pattern DOMAIN_COMPONENT =
      Pattern.compile("(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])");
  private static final Pattern PORT = Pattern.compile("[0-9]+");
  private static final Pattern IPV6 = Pattern.compile("\\[[a-fA-F0-9:]+\\]");
  private static final Pattern TAG = Pattern.compile("[\\w][\\w.-]{0,127}");
  private static final Pattern DIGEST =
      Pattern.compile("([a-z0-9]+(?:[.+_-][a-z0-9]+)*):([a-zA-Z0-9=_-]+)");
  private static final Pattern SHA256_HEX = Pattern.compile("[a-f0-9]{64}");

  /**
   * Makes a reference from parts already known to be valid; the parts are not checked against the
   * grammar here, {@link #parse} does that.
   *
   * @param registry the registry host (with port), empty when the reference names none
   * @param repository the path, e.g. {@code library/nginx} or {@code team/app}
   * @param tag the tag, empty when none is given
   * @param digest the digest ({@code algorithm:hex}), empty when none is given
   * @throws NullPointerException when a part is null (an absent part is empty)
   */
  public ImageReference {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(tag, "tag");
    Objects.requireNonNull(digest, "digest");
  }

  /**
   * Parses {@code text}, for instance a primary's {@code spec.image}, so that a typo is reported on
   * the primary at once rather than as a pod stuck in {@code InvalidImageName} or {@code
   * ErrImagePull}.
   *
   * @param text the reference as a user wrote it
   * @return its parts
   * @throws InvalidImageReferenceException saying what is wrong with it
   */
  public static ImageReference parse(String text) {
    if (text == null || text.isEmpty()) {
      throw new InvalidImageReferenceException(String.valueOf(text), "it is empty");
    }
    if (text.length() > MAX_LENGTH) {
      throw new InvalidImageReferenceException(
          text,
          "it is " + text.length() + " characters long, at most " + MAX_LENGTH + " are allowed");
    }
    if (!text.equals(text.strip()) || text.chars().anyMatch(Character::isWhitespace)) {
      throw new InvalidImageReferenceException(text, "it contains whitespace");
    }

    String rest = text;
    String digest = "";
    int at = rest.indexOf('@');
    if (at >= 0) {
      digest = rest.substring(at + 1);
      rest = rest.substring(0, at);
      checkDigest(text, digest);
    }

    String tag = "";
    int lastSlash = rest.lastIndexOf('/');
    int colon = rest.lastIndexOf(':');
    if (colon > lastSlash) {
      tag = rest.substring(colon + 1);
      rest = rest.substring(0, colon);
      if (!TAG.matcher(tag).matches()) {
        throw new InvalidImageReferenceException(
            text,
            "the tag '"
                + tag
                + "' is not valid: up to 128 letters, digits, '_', '.' or '-',"
                + " not starting with '.' or '-'");
      }
    }
    if (rest.isEmpty()) {
      throw new InvalidImageReferenceException(text, "it names no repository");
    }

    String registry = "";
    int firstSlash = rest.indexOf('/');
    if (firstSlash >= 0) {
      String first = rest.substring(0, firstSlash);
      if (looksLikeRegistry(first)) {
        checkRegistry(text, first);
        registry = first;
        rest = rest.substring(firstSlash + 1);
      }
    }
    checkRepository(text, rest);
    return new ImageReference(registry, rest, tag, digest);
  }

  /**
   * The registry, when the reference names one.
   *
   * @return the registry host (with port), or empty
   */
  public Optional<String> registryName() {
    return registry.isEmpty() ? Optional.empty() : Optional.of(registry);
  }

  /**
   * The tag, when the reference has one.
   *
   * @return the tag, or empty
   */
  public Optional<String> tagName() {
    return tag.isEmpty() ? Optional.empty() : Optional.of(tag);
  }

  /**
   * The digest, when the reference has one.
   *
   * @return the digest ({@code algorithm:hex}), or empty
   */
  public Optional<String> digestValue() {
    return digest.isEmpty() ? Optional.empty() : Optional.of(digest);
  }

  /** The reference as text, in the form it was parsed from. */
  @Override
  public String toString() {
    return (registry.isEmpty() ? "" : registry + "/")
        + repository
        + (tag.isEmpty() ? "" : ":" + tag)
        + (digest.isEmpty() ? "" : "@" + digest);
  }

  // As in the distribution grammar: the first component is a registry when it has a '.' or a ':'
  // (port) or is "localhost"; otherwise it is the first path component.
  private static boolean looksLikeRegistry(String component) {
    return component.contains(".") || component.contains(":") || component.equals("localhost");
  }

  private static void checkRegistry(String text, String registry) {
    String host = registry;
    String port = null;
    if (registry.startsWith("[")) {
      int close = registry.indexOf(']');
      if (close < 0 || !IPV6.matcher(registry.substring(0, close + 1)).matches()) {
        throw new InvalidImageReferenceException(
            text, "the registry '" + registry + "' is not valid");
      }
      host = registry.substring(0, close + 1);
      String after = registry.substring(close + 1);
      if (!after.isEmpty()) {
        if (!after.startsWith(":")) {
          throw new InvalidImageReferenceException(
              text, "the registry '" + registry + "' is not valid");
        }
        port = after.substring(1);
      }
    } else {
      int colon = registry.indexOf(':');
      if (colon >= 0) {
        host = registry.substring(0, colon);
        port = registry.substring(colon + 1);
      }
      for (String label : host.split("\\.", -1)) {
        if (!DOMAIN_COMPONENT.matcher(label).matches()) {
          throw new InvalidImageReferenceException(
              text, "the registry host '" + host + "' is not a valid host name");
        }
      }
    }
    if (port != null
        && (!PORT.matcher(port).matches() || port.length() > 5 || Integer.parseInt(port) > 65535)) {
      throw new InvalidImageReferenceException(
          text, "the registry port '" + port + "' is not a number from 0 to 65535");
    }
  }

  private static void checkRepository(String text, String repository) {
    for (String component : repository.split("/", -1)) {
      if (component.isEmpty()) {
        throw new InvalidImageReferenceException(
            text,
            "the repository '"
                + repository
                + "' has an empty path component ('//' or a leading or trailing '/')");
      }
      if (!PATH_COMPONENT.matcher(component).matches()) {
        String why =
            component.equals(component.toLowerCase(java.util.Locale.ROOT))
                ? "use lower-case letters and digits, separated by '.', '_', '__' or '-'"
                : "repository names must be lower-case";
        throw new InvalidImageReferenceException(
            text, "the repository component '" + component + "' is not valid: " + why);
      }
    }
  }

  private static void checkDigest(String text, String digest) {
    Matcher matcher = DIGEST.matcher(digest);
    if (!matcher.matches()) {
      throw new InvalidImageReferenceException(
          text,
          "the digest '"
              + digest
              + "' is not of the form algorithm:hex, e.g. sha256:<64 hex digits>");
    }
    if (matcher.group(1).equals("sha256") && !SHA256_HEX.matcher(matcher.group(2)).matches()) {
      throw new InvalidImageReferenceException(
          text, "a sha256 digest needs exactly 64 lower-case hex digits");
    }
  }
}
