/**
 * Layout components of our own for void schema nodes:
 * - `Card`: an antd Card titled with the node's title (localized like every title), for grouping fields;
 * - `Text`: a heading or a paragraph (`x-content` or the node's title; prop `mode` 'title' | 'text').
 */
import React from 'react';
import { Card as AntdCard, Typography, type CardProps } from 'antd';
import { observer, useField } from '@formily/react';

export const Card = observer((props: React.PropsWithChildren<CardProps>) => {
  const field = useField();
  return (
    <AntdCard size="small" title={field?.title as React.ReactNode} style={{ marginBottom: 16 }} {...props}>
      {props.children}
    </AntdCard>
  );
});

export const Text = observer((props: React.PropsWithChildren<{ mode?: 'title' | 'text'; content?: string }>) => {
  const field = useField();
  const content = props.children ?? props.content ?? (field?.title as React.ReactNode);
  return props.mode === 'text' ? <Typography.Paragraph>{content}</Typography.Paragraph> : <Typography.Title level={5}>{content}</Typography.Title>;
});
