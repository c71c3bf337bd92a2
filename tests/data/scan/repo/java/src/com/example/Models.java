package com.example;

public final class Models {
    public static final String EU_SONNET = "eu.anthropic.claude-3-5-sonnet-20241022-v2:0";
    public static final String SONNET_3 = "anthropic.claude-3-sonnet-20240229-v1:0";
    public static final String LLAMA = "meta.llama3-1-8b-instruct-v1:0";
}
