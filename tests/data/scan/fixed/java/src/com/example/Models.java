package com.example;

public final class Models {
    public static final String EU_SONNET = "eu.anthropic.claude-sonnet-4-5-20250929-v1:0";
    public static final String SONNET_3 = "anthropic.claude-sonnet-4-5-20250929-v1:0";
    public static final String LLAMA = "meta.llama3-1-8b-instruct-v1:0";
}
