package dev.converge.crd.sample;

import dev.converge.crd.annotation.Default;
import dev.converge.crd.annotation.Items;
import dev.converge.crd.annotation.Nullable;
import dev.converge.crd.annotation.Required;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** Spec of {@link Schedule}: one field per value type. */
public class ScheduleSpec {
  @Required public Instant start;
  public OffsetDateTime notBefore;
  public ZonedDateTime zoned;
  public LocalDate day;
  public LocalTime at;
  public Duration timeout;
  public io.fabric8.kubernetes.api.model.Duration interval;
  public UUID id;
  public URI link;
  public byte[] payload;
  public char letter = 'a';
  public Character initial;
  public short shortNumber;
  public byte tinyNumber;
  public long big;
  public float ratio;
  public BigDecimal amount;
  public BigInteger huge;
  public Set<String> tags;
  public Set<Priority> priorities;
  public Priority priority;
  public Quantity memory;
  public IntOrString maxUnavailable;

  @Items(max = 3)
  public List<Window> windows;

  public Map<String, List<Integer>> buckets;
  public Optional<String> note;
  @Nullable public String comment;
  public Token token;

  @Default("3")
  public Integer retries;

  public List<Condition> conditions;
}
