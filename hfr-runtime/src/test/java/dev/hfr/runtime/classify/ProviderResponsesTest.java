package dev.hfr.runtime.classify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.time.VirtualTime;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real response shapes of OpenAI, Anthropic and Azure OpenAI, written after their documented error
 * formats, and the class each must get (the paper's Tables 2, 4 and 11).
 */
@DisplayName("Real provider error responses are classified by what they mean, not only by their status")
class ProviderResponsesTest {

  private final DefaultFailureClassifier classifier = new DefaultFailureClassifier(new VirtualTime());

  static Stream<Arguments> responses() {
    return Stream.of(
        // ---- OpenAI ------------------------------------------------------------------------------
        row("OpenAI 429 rate limit", 429, Map.of("retry-after", "2"),
            "{\"error\": {\"message\": \"Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): "
                + "Limit 30000, Used 29000, Requested 2000. Please try again in 2s.\", \"type\": \"tokens\", "
                + "\"param\": null, \"code\": \"rate_limit_exceeded\"}}",
            Fault.T2, null, "http.429.retry-after"),
        row("OpenAI 429 insufficient_quota is permanent", 429, Map.of(),
            "{\"error\": {\"message\": \"You exceeded your current quota, please check your plan and billing details.\", "
                + "\"type\": \"insufficient_quota\", \"param\": null, \"code\": \"insufficient_quota\"}}",
            Fault.T7, Fault.T2, "http.429.quota"),
        row("OpenAI 429 spend limit is permanent", 429, Map.of(),
            "{\"error\": {\"message\": \"You have reached your spend limit.\", \"type\": \"insufficient_quota\", "
                + "\"code\": \"enforced_spend_limit_reached\"}}",
            Fault.T7, Fault.T2, "http.429.quota"),
        row("OpenAI 429 billing hard limit is permanent", 429, Map.of(),
            "{\"error\": {\"message\": \"Billing hard limit has been reached\", \"type\": \"invalid_request_error\", "
                + "\"code\": \"billing_hard_limit_reached\"}}",
            Fault.T7, Fault.T2, "http.429.quota"),
        row("OpenAI 400 context_length_exceeded", 400, Map.of(),
            "{\"error\": {\"message\": \"This model's maximum context length is 128000 tokens. However, your messages "
                + "resulted in 130542 tokens. Please reduce the length of the messages.\", \"type\": "
                + "\"invalid_request_error\", \"param\": \"messages\", \"code\": \"context_length_exceeded\"}}",
            Fault.T6, null, "http.400.context-length"),
        row("OpenAI 400 content_policy_violation", 400, Map.of(),
            "{\"error\": {\"code\": \"content_policy_violation\", \"message\": \"Your request was rejected as a result "
                + "of our safety system.\", \"param\": null, \"type\": \"invalid_request_error\"}}",
            Fault.T8, null, "http.400.content-policy"),
        row("OpenAI 400 invalid_request_error", 400, Map.of(),
            "{\"error\": {\"message\": \"Invalid value for 'temperature': must be between 0 and 2.\", \"type\": "
                + "\"invalid_request_error\", \"param\": \"temperature\", \"code\": \"invalid_value\"}}",
            Fault.T7, null, "http.400"),
        row("OpenAI 401 invalid_api_key", 401, Map.of(),
            "{\"error\": {\"message\": \"Incorrect API key provided: sk-abc***.\", \"type\": \"invalid_request_error\", "
                + "\"param\": null, \"code\": \"invalid_api_key\"}}",
            Fault.T7, null, "http.401"),
        row("OpenAI 403 unsupported region", 403, Map.of(),
            "{\"error\": {\"code\": \"unsupported_country_region_territory\", \"message\": \"Country, region, or "
                + "territory not supported\", \"param\": null, \"type\": \"request_forbidden\"}}",
            Fault.T7, null, "http.403"),
        row("OpenAI 404 model_not_found", 404, Map.of(),
            "{\"error\": {\"message\": \"The model `gpt-9` does not exist or you do not have access to it.\", "
                + "\"type\": \"invalid_request_error\", \"param\": null, \"code\": \"model_not_found\"}}",
            Fault.T5, null, "http.404.unknown-tool"),
        row("OpenAI 500 server_error", 500, Map.of(),
            "{\"error\": {\"message\": \"The server had an error while processing your request. Sorry about that!\", "
                + "\"type\": \"server_error\", \"param\": null, \"code\": null}}",
            Fault.T1, null, "http.5xx"),
        row("OpenAI 503 engine overloaded is T4, not T1", 503, Map.of(),
            "{\"error\": {\"message\": \"The engine is currently overloaded, please try again later.\", "
                + "\"type\": \"server_error\", \"param\": null, \"code\": null}}",
            Fault.T4, Fault.T1, "http.5xx.overloaded"),
        // ---- Anthropic ---------------------------------------------------------------------------
        row("Anthropic 429 rate_limit_error", 429, Map.of("retry-after", "17"),
            "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"This request would exceed the "
                + "rate limit for your organization of 50,000 input tokens per minute.\"}}",
            Fault.T2, null, "http.429.retry-after"),
        row("Anthropic 529 overloaded_error", 529, Map.of(),
            "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}",
            Fault.T4, null, "http.529"),
        row("Anthropic 500 api_error saying Overloaded", 500, Map.of(),
            "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}",
            Fault.T4, Fault.T1, "http.5xx.overloaded"),
        row("Anthropic 400 prompt is too long", 400, Map.of(),
            "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long: "
                + "215000 tokens > 200000 maximum\"}}",
            Fault.T6, null, "http.400.context-length"),
        row("Anthropic 400 credit balance too low", 400, Map.of(),
            "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"Your credit balance is too "
                + "low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.\"}}",
            Fault.T7, null, "http.400.quota"),
        row("Anthropic 401 authentication_error", 401, Map.of(),
            "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}",
            Fault.T7, null, "http.401"),
        row("Anthropic 403 permission_error", 403, Map.of(),
            "{\"type\":\"error\",\"error\":{\"type\":\"permission_error\",\"message\":\"Your API key does not have "
                + "permission to use the specified resource.\"}}",
            Fault.T7, null, "http.403"),
        row("Anthropic 404 not_found_error", 404, Map.of(),
            "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"model: claude-9\"}}",
            Fault.T5, null, "http.404.unknown-tool"),
        row("Anthropic 413 request_too_large", 413, Map.of(),
            "{\"type\":\"error\",\"error\":{\"type\":\"request_too_large\",\"message\":\"Request exceeds the maximum "
                + "allowed number of bytes.\"}}",
            Fault.T6, null, "http.413"),
        row("Anthropic 500 api_error", 500, Map.of(),
            "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"Internal server error\"}}",
            Fault.T1, null, "http.5xx"),
        row("Anthropic 200 stream carrying an overloaded error event", 200, Map.of(),
            "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": "
                + "\"Overloaded\"}}\n\n",
            Fault.T4, null, "body.overloaded"),
        row("Anthropic 200 with stop_reason refusal", 200, Map.of(),
            "{\"id\":\"msg_01\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\","
                + "\"content\":[],\"stop_reason\":\"refusal\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":10,"
                + "\"output_tokens\":0}}",
            Fault.T8, null, "http.2xx.refusal"),
        // ---- Azure OpenAI ------------------------------------------------------------------------
        row("Azure 400 content_filter with innererror", 400, Map.of(),
            "{\"error\":{\"message\":\"The response was filtered due to the prompt triggering Azure OpenAI's content "
                + "management policy. Please modify your prompt and retry.\",\"type\":null,\"param\":\"prompt\","
                + "\"code\":\"content_filter\",\"status\":400,\"innererror\":{\"code\":\"ResponsibleAIPolicyViolation\","
                + "\"content_filter_result\":{\"hate\":{\"filtered\":false,\"severity\":\"safe\"},\"violence\":"
                + "{\"filtered\":true,\"severity\":\"medium\"}}}}}",
            Fault.T8, null, "http.400.content-policy"),
        row("Azure 429 token rate limit with retry-after-ms", 429, Map.of("retry-after", "6", "retry-after-ms", "6000"),
            "{\"error\":{\"code\":\"429\",\"message\":\"Requests to the ChatCompletions_Create Operation under Azure "
                + "OpenAI API version 2024-02-01 have exceeded token rate limit of your current OpenAI S0 pricing tier. "
                + "Please retry after 6 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to "
                + "further increase the default rate limit.\"}}",
            Fault.T2, null, "http.429.retry-after"),
        row("Azure 200 with finish_reason content_filter", 200, Map.of(),
            "{\"choices\":[{\"content_filter_results\":{\"hate\":{\"filtered\":true,\"severity\":\"high\"}},"
                + "\"finish_reason\":\"content_filter\",\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null}}],"
                + "\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\"}",
            Fault.T8, null, "http.2xx.refusal"),
        row("Azure 400 context_length_exceeded", 400, Map.of(),
            "{\"error\":{\"message\":\"This model's maximum context length is 8192 tokens.\",\"type\":"
                + "\"invalid_request_error\",\"param\":\"messages\",\"code\":\"context_length_exceeded\"}}",
            Fault.T6, null, "http.400.context-length"),
        // ---- Google Gemini and AWS Bedrock -------------------------------------------------------
        row("Gemini 429 RESOURCE_EXHAUSTED is a rate limit", 429, Map.of(),
            "{\"error\": {\"code\": 429, \"message\": \"Resource has been exhausted (e.g. check quota).\", "
                + "\"status\": \"RESOURCE_EXHAUSTED\"}}",
            Fault.T2, null, "http.429"),
        row("Gemini 400 token count over the maximum", 400, Map.of(),
            "{\"error\": {\"code\": 400, \"message\": \"The input token count (1200000) exceeds the maximum number "
                + "of tokens allowed (1048576).\", \"status\": \"INVALID_ARGUMENT\"}}",
            Fault.T6, null, "http.400.context-length"),
        row("Gemini 503 model overloaded", 503, Map.of(),
            "{\"error\": {\"code\": 503, \"message\": \"The model is overloaded. Please try again later.\", "
                + "\"status\": \"UNAVAILABLE\"}}",
            Fault.T4, Fault.T1, "http.5xx.overloaded"),
        row("Bedrock 400 ValidationException input too long", 400, Map.of(),
            "{\"message\":\"Input is too long for requested model.\"}",
            Fault.T6, null, "http.400.context-length"),
        row("Bedrock 429 ThrottlingException", 429, Map.of(),
            "{\"message\":\"Too many requests, please wait before trying again.\"}",
            Fault.T2, null, "http.429"),
        row("OpenAI 429 request larger than the per-minute limit: compress, not only wait", 429, Map.of(),
            "{\"error\": {\"message\": \"Request too large for gpt-4 in organization org-abc on tokens per min (TPM): "
                + "Limit 10000, Requested 16000. The input or output tokens must be reduced in order to run "
                + "successfully.\", \"type\": \"tokens\", \"param\": null, \"code\": \"rate_limit_exceeded\"}}",
            Fault.T6, Fault.T2, "http.429.context-length"),
        // ---- generic HTTP ------------------------------------------------------------------------
        row("nginx 502 page", 502, Map.of(),
            "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>"
                + "<hr><center>nginx</center></body></html>",
            Fault.T1, null, "http.5xx"),
        row("504 gateway timeout: outcome of a write unknown", 504, Map.of(), "upstream request timeout",
            Fault.T1, Fault.T3, "http.504"),
        row("503 with Retry-After: refused before processing, a rule of its own", 503, Map.of("Retry-After", "30"),
            "Service Unavailable", Fault.T1, null, "http.503"),
        row("408 request timeout", 408, Map.of(), "", Fault.T3, null, "http.408"),
        row("409 conflict goes to reconciliation, not a blind retry", 409, Map.of(),
            "{\"error\":{\"type\":\"idempotency_error\",\"message\":\"Keys for idempotent requests can only be used "
                + "with the same parameters they were first used with.\"}}",
            Fault.T3, null, "http.409.conflict"),
        row("404 unknown tool", 404, Map.of(), "{\"error\":\"unknown tool: ShopTools.serch\"}",
            Fault.T5, null, "http.404.unknown-tool"),
        row("422 schema validation", 422, Map.of(),
            "{\"detail\":[{\"type\":\"missing\",\"loc\":[\"body\",\"sku\"],\"msg\":\"Field required\"}]}",
            Fault.T5, null, "http.422.contract"),
        row("400 tool schema mismatch", 400, Map.of(), "{\"error\":{\"code\":\"schema_mismatch\",\"message\":\"missing field sku\"}}",
            Fault.T5, null, "http.400.tool-contract"),
        row("451 unavailable for legal reasons", 451, Map.of(), "", Fault.T8, null, "http.451"),
        row("429 and context overflow at once: compress first, keep the Retry-After", 429, Map.of("retry-after", "3"),
            "{\"error\":{\"code\":\"context_length_exceeded\",\"message\":\"too many requests and prompt is too long\"}}",
            Fault.T6, Fault.T2, "http.429.context-length"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("responses")
  void classifiesRealResponse(String name, int status, Map<String, String> headers, String body, Fault fault,
      Fault secondary, String rule) {
    Observation.Builder b = Observation.builder().httpStatus(status).body(body);
    headers.forEach(b::header);

    Classification c = classifier.classify(b.build());

    assertThat(c.fault()).as("fault").isEqualTo(fault);
    assertThat(c.secondary()).as("secondary").isEqualTo(secondary);
    assertThat(c.rule()).as("rule").isEqualTo(rule);
    assertThat(c.confidence()).as("confidence").isBetween(0.4, 1.0);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("responses")
  void classifiesTheSameResponseThrownAsHttpCallException(String name, int status, Map<String, String> headers,
      String body, Fault fault, Fault secondary, String rule) {
    Map<String, java.util.List<String>> multi = new java.util.HashMap<>();
    headers.forEach((k, v) -> multi.put(k, java.util.List.of(v)));
    if (status >= 400) {
      Classification c = classifier.classify(Observation.of(
          new RuntimeException("tool failed", new HttpCallException(status, multi, body))));
      assertThat(c.fault()).isEqualTo(fault);
      assertThat(c.rule()).isEqualTo(rule);
    }
  }

  private static Arguments row(String name, int status, Map<String, String> headers, String body, Fault fault,
      Fault secondary, String rule) {
    return Arguments.of(name, status, headers, body, fault, secondary, rule);
  }
}
